import type { FinishReason } from '../../types/index.js';

const OPENAI_VALUES: ReadonlySet<string> = new Set([
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'function_call',
]);

// Values some OpenAI-compatible servers pass through from the model vendor's own API.
const VENDOR_VALUES: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  eos: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_length: 'length',
  refusal: 'content_filter',
};

/**
 * The contract `finish_reason` of an OpenAI-compatible value: OpenAI's own values as they are, a few
 * vendor spellings mapped, anything else `stop` (the answer ended, for a reason the contract has no
 * name for).
 */
export function mapOpenAIFinishReason(raw: string): FinishReason {
  if (OPENAI_VALUES.has(raw)) return raw as FinishReason;
  return VENDOR_VALUES[raw] ?? 'stop';
}
