/**
 * `@svc/router/reasoning`: one shape (`reasoning_content`, `thinking_blocks`) for every provider's
 * reasoning output, the stream accumulator, reasoning support detection, and the per-provider
 * translation of `reasoning_effort` / `thinking`.
 */
export type {
  AnyThinkingBlock,
  ReasoningEffort,
  RedactedThinkingBlock,
  ThinkingBlock,
  ThinkingParam,
} from '../types/index.js';
export { accumulateChunks } from './accumulate-chunks.js';
export { supportsReasoning } from './supports-reasoning.js';
export { type ReasoningRequest, toProviderReasoningParams } from './to-provider-params.js';
