import type { FinishReason } from '@svc/router';

/** An Anthropic `stop_reason`. */
export type StopReason = 'end_turn' | 'stop_sequence' | 'max_tokens' | 'tool_use' | 'refusal';

/** How an Anthropic message ended: its `stop_reason` and the stop sequence it matched, if any. */
export interface AnthropicStop {
  stop_reason: StopReason;
  stop_sequence: string | null;
}

// the inverse of the Anthropic adapter's map (src/providers/anthropic/finish-reason.ts)
const STOP_REASONS: Readonly<Record<FinishReason, StopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

/**
 * A chat `finish_reason` as Anthropic's `stop_reason`. A finished answer without one (some providers
 * leave it out) ended its turn.
 *
 * @example toStopReason('tool_calls') // => 'tool_use'
 */
export function toStopReason(finishReason: FinishReason | null | undefined): StopReason {
  return (finishReason && STOP_REASONS[finishReason]) || 'end_turn';
}

/**
 * The stop of an answer, with `stop_sequence` when the provider said which one matched (the
 * Anthropic adapter keeps it in `provider_specific_fields.stop_sequence`). OpenAI-type providers
 * never say, so their stops read as `end_turn`.
 *
 * @example toAnthropicStop('stop', { stop_sequence: 'END' }) // => { stop_reason: 'stop_sequence', stop_sequence: 'END' }
 */
export function toAnthropicStop(
  finishReason: FinishReason | null | undefined,
  fields: Readonly<Record<string, unknown>> | null | undefined,
): AnthropicStop {
  const matched = fields?.stop_sequence;
  const reason = toStopReason(finishReason);
  if (reason === 'end_turn' && typeof matched === 'string')
    return { stop_reason: 'stop_sequence', stop_sequence: matched };
  return { stop_reason: reason, stop_sequence: null };
}
