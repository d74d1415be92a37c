import type { ChatCompletionRequest } from '../../types/index.js';
import { reasoningIntent } from '../shared/reasoning-controls.js';

/** OpenRouter's unified reasoning object. */
export interface OpenrouterReasoning {
  effort?: string;
  max_tokens?: number;
  enabled?: boolean;
}

/**
 * OpenRouter's `reasoning` object for a request: `reasoning_effort` becomes `{ effort }`, an explicit
 * `thinking.budget_tokens` (which wins) becomes `{ max_tokens }`, `reasoning_effort: 'none'` or
 * `thinking.type: 'disabled'` becomes `{ enabled: false }`, `thinking` enabled without a budget
 * `{ enabled: true }`. OpenRouter translates it for the model behind it. The result replaces the
 * request's `reasoning_effort` and `thinking`.
 *
 * @example openrouterReasoningParams({ model: 'm', messages: [], thinking: { type: 'enabled', budget_tokens: 2000 } })
 * // => { reasoning: { max_tokens: 2000 } }
 */
export function openrouterReasoningParams(
  request: Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>,
): { reasoning?: OpenrouterReasoning } {
  const intent = reasoningIntent(request);
  if (intent.kind === 'unset') return {};
  if (intent.kind === 'off') return { reasoning: { enabled: false } };
  if (intent.budget !== undefined) return { reasoning: { max_tokens: intent.budget } };
  if (intent.effort) return { reasoning: { effort: intent.effort } };
  return { reasoning: { enabled: true } };
}
