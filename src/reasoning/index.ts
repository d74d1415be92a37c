/**
 * `@svc/router/reasoning`: one shape (`reasoning_content`, `thinking_blocks`) for every provider's
 * reasoning output. This version exports the types; normalizers and the stream accumulator follow.
 */
export type {
  AnyThinkingBlock,
  ReasoningEffort,
  RedactedThinkingBlock,
  ThinkingBlock,
  ThinkingParam,
} from '../types/index.js';
