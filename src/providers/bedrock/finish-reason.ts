import { InternalServerError } from '../../errors/classes.js';
import type { FinishReason } from '../../types/index.js';

// the model failed to produce a usable turn: retryable, never an empty `stop`
const MODEL_FAILURES = new Set(['malformed_model_output', 'malformed_tool_use']);

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
 * `content_filter`. Any other reason is `stop`; no reason is `null`.
 *
 * @throws InternalServerError (retryable) for `malformed_model_output` and `malformed_tool_use`.
 */
export function toFinishReason(stopReason: unknown): FinishReason | null {
  if (typeof stopReason !== 'string' || stopReason === '') return null;
  if (MODEL_FAILURES.has(stopReason)) {
    throw new InternalServerError(
      `bedrock: the model failed to complete its turn (stopReason ${stopReason})`,
      {
        provider: 'bedrock',
      },
    );
  }
  return REASONS[stopReason] ?? 'stop';
}
