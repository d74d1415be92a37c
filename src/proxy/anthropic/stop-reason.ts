import type { FinishReason } from '../../types/chat.js';

/** An Anthropic `stop_reason`. */
export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'refusal';

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
