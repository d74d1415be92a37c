import { BadRequestError } from '../../errors/classes.js';
import type { ThinkingParam } from '../../types/index.js';

/** `maxTokens` assumed when a Claude call with thinking sets neither `max_tokens` nor `max_completion_tokens`. */
export const DEFAULT_MAX_TOKENS = 4096;

/** `reasoning_effort` to `thinking.budget_tokens` (CONTRACT 5.4, the Anthropic numbers). */
export const EFFORT_BUDGETS: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 2048,
  high: 4096,
};

/** The request fields the translation reads (the caller's request over the deployment's defaults). */
export interface BedrockReasoningInput {
  reasoning_effort?: unknown;
  thinking?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
}

/** The Converse fields that carry a Claude model's reasoning settings. */
export interface BedrockReasoningParams {
  /** Present when thinking is enabled: Claude needs `maxTokens` above the thinking budget. */
  inferenceConfig?: { maxTokens: number };
  /** Claude's own `thinking` object, passed to the model through Converse. */
  additionalModelRequestFields?: { thinking: ThinkingParam };
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

function thinkingOf(input: BedrockReasoningInput): ThinkingParam | undefined {
  if (input.thinking && typeof input.thinking === 'object') return input.thinking as ThinkingParam;
  const effort = input.reasoning_effort;
  if (effort === undefined || effort === null || effort === 'none') return undefined;
  const budget = typeof effort === 'string' ? EFFORT_BUDGETS[effort] : undefined;
  if (budget === undefined) {
    throw new BadRequestError(
      `reasoning_effort ${JSON.stringify(effort)} is not one of none, minimal, low, medium, high`,
      { provider: 'bedrock' },
    );
  }
  return { type: 'enabled', budget_tokens: budget };
}

/**
 * Translates OpenAI-style reasoning fields into Converse fields for a Claude model on Bedrock
 * (CONTRACT 5.4). An explicit `thinking` object wins over `reasoning_effort` and passes through as
 * given; `reasoning_effort` becomes `thinking: { type: 'enabled', budget_tokens }` (minimal/low 1024,
 * medium 2048, high 4096); `none` (or no reasoning field) returns `{}`. With thinking enabled,
 * `inferenceConfig.maxTokens` is the caller's (`max_tokens`, else `max_completion_tokens`, else 4096),
 * raised to `budget_tokens + 4096` when it is not above the budget, since Claude rejects a budget that
 * does not fit inside the output limit. Only for Claude models: other Bedrock models take their own
 * reasoning fields through `additionalModelRequestFields` unchanged.
 *
 * @throws BadRequestError for a `reasoning_effort` outside none/minimal/low/medium/high.
 * @example
 * bedrockReasoningParams({ reasoning_effort: 'high', max_tokens: 1000 });
 * // { inferenceConfig: { maxTokens: 8192 },
 * //   additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } } }
 */
export function bedrockReasoningParams(input: BedrockReasoningInput): BedrockReasoningParams {
  const thinking = thinkingOf(input);
  if (!thinking) return {};
  const budget = thinking.type === 'enabled' ? positive(thinking.budget_tokens) : undefined;
  if (budget === undefined) return { additionalModelRequestFields: { thinking } };
  const requested = positive(input.max_tokens) ?? positive(input.max_completion_tokens) ?? DEFAULT_MAX_TOKENS;
  const maxTokens = requested <= budget ? budget + DEFAULT_MAX_TOKENS : requested;
  return { inferenceConfig: { maxTokens }, additionalModelRequestFields: { thinking } };
}
