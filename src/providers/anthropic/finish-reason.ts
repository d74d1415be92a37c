import type { FinishReason } from '../../types/index.js';

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // a server tool paused a long turn; the caller continues it by sending the turn back
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

/**
 * Anthropic `stop_reason` to the contract's `finish_reason` (CONTRACT 5.2). Null while the message is
 * unfinished; an unknown future reason reads as `stop` rather than failing a finished answer.
 */
export function toFinishReason(stopReason: unknown): FinishReason | null {
  if (typeof stopReason !== 'string') return null;
  return STOP_REASONS[stopReason] ?? 'stop';
}
