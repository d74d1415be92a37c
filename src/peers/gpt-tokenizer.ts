import { OptionalPeer } from './optional-peer.js';

/** gpt-tokenizer: exact o200k_base token counts for the pre-call checks (an estimate without it). */
export const gptTokenizer = new OptionalPeer<typeof import('gpt-tokenizer')>(
  'gpt-tokenizer',
  'for exact token counts',
);
