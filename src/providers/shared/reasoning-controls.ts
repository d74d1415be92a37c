import { BadRequestError } from '../../errors/classes.js';
import type { ReasoningEffort, ThinkingParam } from '../../types/index.js';

/** The reasoning controls of a request: its `reasoning_effort` and `thinking`. */
export interface ReasoningControls {
  reasoning_effort?: ReasoningEffort | undefined;
  thinking?: ThinkingParam | undefined;
}

/** Reasoning token budgets of each effort (CONTRACT 5.4, the Anthropic and Gemini 2.5 numbers). */
export const EFFORT_BUDGETS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 2048,
  high: 4096,
};

/** The effort a thinking budget stands for, the inverse of `EFFORT_BUDGETS`. */
export function effortForBudget(budget: number): 'low' | 'medium' | 'high' {
  if (budget <= EFFORT_BUDGETS.low) return 'low';
  if (budget <= EFFORT_BUDGETS.medium) return 'medium';
  return 'high';
}

/**
 * What the request asks of reasoning, with an explicit `thinking` winning over `reasoning_effort`:
 * `off`, `on` with an optional budget and effort, or nothing asked.
 */
export type ReasoningIntent =
  | { kind: 'unset' }
  | { kind: 'off' }
  | { kind: 'on'; effort?: Exclude<ReasoningEffort, 'none'>; budget?: number };

/** Reads the request's reasoning controls into one intent. */
export function reasoningIntent(request: ReasoningControls): ReasoningIntent {
  const { thinking, reasoning_effort: effort } = request;
  if (thinking && typeof thinking === 'object') {
    if (thinking.type === 'disabled') return { kind: 'off' };
    const on: { kind: 'on'; effort?: Exclude<ReasoningEffort, 'none'>; budget?: number } = { kind: 'on' };
    if (typeof thinking.budget_tokens === 'number') {
      on.budget = thinking.budget_tokens;
      on.effort = effortForBudget(thinking.budget_tokens);
    } else if (effort && effort !== 'none') on.effort = effort;
    return on;
  }
  if (effort === 'none') return { kind: 'off' };
  if (effort) return { kind: 'on', effort };
  return { kind: 'unset' };
}

/** The body without the caller's reasoning controls, to be replaced by the provider's native fields. */
export function withoutReasoningControls(body: Record<string, unknown>): Record<string, unknown> {
  const { reasoning_effort: _effort, thinking: _thinking, ...rest } = body;
  return rest;
}

/** `max_tokens` a Claude call gets when the caller sets neither `max_tokens` nor `max_completion_tokens`. */
export const DEFAULT_CLAUDE_MAX_TOKENS = 4096;

/** The request fields Claude's reasoning translation reads (the caller's request over the deployment's defaults). */
export interface ClaudeReasoningInput {
  reasoning_effort?: unknown;
  thinking?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
}

/** Claude's reasoning settings, wherever Claude is hosted (Anthropic, Vertex AI, Bedrock). */
export interface ClaudeThinking {
  /** The output limit to send: the caller's, raised above the thinking budget when needed. */
  maxTokens: number;
  thinking?: ThinkingParam;
  /** The thinking budget, when thinking is enabled with one. */
  budget?: number;
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

/**
 * Translates OpenAI-style reasoning fields for a Claude model (CONTRACT 5.4): an explicit `thinking`
 * object wins and passes through as given; `reasoning_effort` becomes `thinking: { type: 'enabled',
 * budget_tokens }` (minimal/low 1024, medium 2048, high 4096); `none` sends no thinking. The output
 * limit is the caller's (`max_tokens`, else `max_completion_tokens`, else 4096), raised to
 * `budget_tokens + 4096` when it is not above the budget, since Claude rejects a budget that does not
 * fit inside it.
 *
 * @throws BadRequestError for a `reasoning_effort` outside none/minimal/low/medium/high.
 */
export function claudeThinking(input: ClaudeReasoningInput, provider: string): ClaudeThinking {
  const requested =
    positive(input.max_tokens) ?? positive(input.max_completion_tokens) ?? DEFAULT_CLAUDE_MAX_TOKENS;
  let thinking: ThinkingParam | undefined;
  if (input.thinking && typeof input.thinking === 'object') thinking = input.thinking as ThinkingParam;
  else {
    const effort = input.reasoning_effort;
    if (effort !== undefined && effort !== null && effort !== 'none') {
      const budget =
        typeof effort === 'string' ? EFFORT_BUDGETS[effort as keyof typeof EFFORT_BUDGETS] : undefined;
      if (budget === undefined) {
        throw new BadRequestError(
          `reasoning_effort ${JSON.stringify(effort)} is not one of none, minimal, low, medium, high`,
          { provider },
        );
      }
      thinking = { type: 'enabled', budget_tokens: budget };
    }
  }
  if (!thinking) return { maxTokens: requested };
  const budget = thinking.type === 'enabled' ? positive(thinking.budget_tokens) : undefined;
  if (budget === undefined) return { maxTokens: requested, thinking };
  return {
    maxTokens: requested <= budget ? budget + DEFAULT_CLAUDE_MAX_TOKENS : requested,
    thinking,
    budget,
  };
}
