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
