import type { FinishReason } from '../../types/index.js';

const REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/**
 * A Converse `stopReason` as an OpenAI `finish_reason` (CONTRACT 5.2): `end_turn` and
 * `stop_sequence` -> `stop`, `tool_use` -> `tool_calls`, `max_tokens` (and
 * `model_context_window_exceeded`) -> `length`, `guardrail_intervened` / `content_filtered` ->
 * `content_filter`. Any other reason (`malformed_model_output`, ...) is `stop`; no reason is `null`.
 */
export function toFinishReason(stopReason: unknown): FinishReason | null {
  if (typeof stopReason !== 'string' || stopReason === '') return null;
  return REASONS[stopReason] ?? 'stop';
}
