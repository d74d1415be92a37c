import type { ChatCompletionRequest } from '../../types/index.js';
import { reasoningIntent } from '../shared/reasoning-controls.js';

/** DeepSeek's reasoning controls: the thinking-mode switch and its effort. */
export interface DeepseekReasoningFields {
  thinking?: { type: 'enabled' | 'disabled' };
  reasoning_effort?: string;
}

// DeepSeek's own table: minimal/low think at `low`, medium/high at `high`; its `max` passes as is.
const EFFORTS: Readonly<Record<string, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'high',
  high: 'high',
};

/**
 * DeepSeek's reasoning fields for a request. DeepSeek switches thinking with `thinking: { type }` (no
 * budget: a `budget_tokens` only picks the effort, up to 1024 `low`, more `high`) and sets its depth
 * with `reasoning_effort` `low`/`high`/`max`. `reasoning_effort: 'none'` or `thinking.type:
 * 'disabled'` turns thinking off; any other effort turns it on. An explicit `thinking` wins. The result
 * replaces the request's `reasoning_effort` and `thinking`.
 *
 * @example deepseekReasoningParams({ model: 'deepseek-chat', messages: [], reasoning_effort: 'medium' })
 * // => { thinking: { type: 'enabled' }, reasoning_effort: 'high' }
 */
export function deepseekReasoningParams(
  request: Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>,
): DeepseekReasoningFields {
  const intent = reasoningIntent(request);
  if (intent.kind === 'unset') return {};
  if (intent.kind === 'off') return { thinking: { type: 'disabled' } };
  const fields: DeepseekReasoningFields = { thinking: { type: 'enabled' } };
  if (intent.effort) fields.reasoning_effort = EFFORTS[intent.effort] ?? intent.effort;
  return fields;
}
