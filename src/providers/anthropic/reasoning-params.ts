import { BadRequestError } from '../../errors/classes.js';
import type { ThinkingParam } from '../../types/index.js';

/** `max_tokens` when the caller sets neither `max_tokens` nor `max_completion_tokens`. */
export const DEFAULT_MAX_TOKENS = 4096;

/** `reasoning_effort` to `thinking.budget_tokens` (CONTRACT 5.4). */
export const EFFORT_BUDGETS: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 2048,
  high: 4096,
};

/** The request fields the translation reads (the caller's request over the deployment's defaults). */
export interface AnthropicReasoningInput {
  reasoning_effort?: unknown;
  thinking?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
}

/** Anthropic's native fields for reasoning: always `max_tokens`, and `thinking` when set. */
export interface AnthropicReasoningParams {
  max_tokens: number;
  thinking?: ThinkingParam;
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

function thinkingOf(input: AnthropicReasoningInput): ThinkingParam | undefined {
  if (input.thinking && typeof input.thinking === 'object') return input.thinking as ThinkingParam;
  const effort = input.reasoning_effort;
  if (effort === undefined || effort === null || effort === 'none') return undefined;
  const budget = typeof effort === 'string' ? EFFORT_BUDGETS[effort] : undefined;
  if (budget === undefined) {
    throw new BadRequestError(
      `reasoning_effort ${JSON.stringify(effort)} is not one of none, minimal, low, medium, high`,
      { provider: 'anthropic' },
    );
  }
  return { type: 'enabled', budget_tokens: budget };
}

/**
 * Translates OpenAI-style reasoning fields into Anthropic's (CONTRACT 5.4). An explicit `thinking`
 * object wins over `reasoning_effort` and passes through as given; `reasoning_effort` becomes
 * `thinking: { type: 'enabled', budget_tokens }` (minimal/low 1024, medium 2048, high 4096) and `none`
 * sends no thinking. `max_tokens` is the caller's (`max_tokens`, else `max_completion_tokens`, else
 * 4096), raised to `budget_tokens + 4096` when it is not above the budget, since Anthropic rejects a
 * budget that does not fit inside `max_tokens`.
 *
 * @throws BadRequestError for a `reasoning_effort` outside none/minimal/low/medium/high.
 * @example
 * anthropicReasoningParams({ reasoning_effort: 'high', max_tokens: 1000 });
 * // { max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 4096 } }
 */
export function anthropicReasoningParams(input: AnthropicReasoningInput): AnthropicReasoningParams {
  const requested = positive(input.max_tokens) ?? positive(input.max_completion_tokens) ?? DEFAULT_MAX_TOKENS;
  const thinking = thinkingOf(input);
  if (!thinking) return { max_tokens: requested };
  const budget = thinking.type === 'enabled' ? positive(thinking.budget_tokens) : undefined;
  const max_tokens = budget !== undefined && requested <= budget ? budget + DEFAULT_MAX_TOKENS : requested;
  return { max_tokens, thinking };
}
