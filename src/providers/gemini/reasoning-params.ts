import type { ReasoningEffort, ThinkingParam } from '../../types/index.js';
import { EFFORT_BUDGETS } from '../shared/reasoning-controls.js';

/** Gemini's `generationConfig.thinkingConfig`: a budget (2.5) or a level (3), never both. */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: 'low' | 'high';
  includeThoughts: boolean;
}

/** The request fields that decide reasoning (the caller's request over the deployment's defaults). */
export interface GeminiReasoningInput {
  model?: string | undefined;
  reasoning_effort?: ReasoningEffort | string | undefined;
  thinking?: ThinkingParam | undefined;
}

/** Whether a model takes `thinkingLevel` (Gemini 3 and later) rather than `thinkingBudget`. */
export function usesThinkingLevel(model: string | undefined): boolean {
  const major = /gemini-(\d+)/i.exec(model ?? '')?.[1];
  return major !== undefined && Number(major) >= 3;
}

function fromThinking(thinking: ThinkingParam, levels: boolean): GeminiThinkingConfig | undefined {
  if (thinking.type === 'disabled') return off(levels);
  if (thinking.type !== 'enabled') return undefined;
  // an explicit budget is the caller's exact wish: sent as a budget even to Gemini 3, which accepts it
  if (typeof thinking.budget_tokens === 'number')
    return { thinkingBudget: thinking.budget_tokens, includeThoughts: true };
  return levels ? { thinkingLevel: 'high', includeThoughts: true } : { includeThoughts: true };
}

function off(levels: boolean): GeminiThinkingConfig {
  // Gemini 3 cannot switch thinking off: its lowest level, with the thoughts left out
  return levels
    ? { thinkingLevel: 'low', includeThoughts: false }
    : { thinkingBudget: 0, includeThoughts: false };
}

function fromEffort(effort: string, levels: boolean): GeminiThinkingConfig | undefined {
  if (effort === 'none') return off(levels);
  const budget = EFFORT_BUDGETS[effort as keyof typeof EFFORT_BUDGETS];
  if (budget === undefined) return undefined;
  if (levels) return { thinkingLevel: budget > 1024 ? 'high' : 'low', includeThoughts: true };
  return { thinkingBudget: budget, includeThoughts: true };
}

/**
 * Translates `thinking` / `reasoning_effort` into Gemini's body fields (CONTRACT 5.4): Gemini 2.5
 * `thinkingConfig.thinkingBudget` (minimal/low 1024, medium 2048, high 4096; `none` -> 0 with
 * `includeThoughts: false`), Gemini 3 `thinkingLevel` (`low` for minimal/low, `high` for medium/high),
 * never both. An explicit `thinking` wins over `reasoning_effort`. Returns `{}` when the request asks
 * for nothing (the model's own default then applies). Pure.
 *
 * @param request the request fields (`model` decides 2.5 vs 3; pass the provider's model name)
 * @example
 * geminiReasoningParams({ model: 'gemini-2.5-flash', reasoning_effort: 'low' })
 * // { generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } }
 */
export function geminiReasoningParams(request: GeminiReasoningInput): {
  generationConfig?: { thinkingConfig: GeminiThinkingConfig };
} {
  const levels = usesThinkingLevel(request.model);
  let config: GeminiThinkingConfig | undefined;
  if (request.thinking && typeof request.thinking === 'object')
    config = fromThinking(request.thinking, levels);
  else if (typeof request.reasoning_effort === 'string')
    config = fromEffort(request.reasoning_effort, levels);
  return config ? { generationConfig: { thinkingConfig: config } } : {};
}
