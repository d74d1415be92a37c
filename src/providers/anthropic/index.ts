/** The Anthropic Messages format: the `anthropic/` adapter and the factory other hosts of Claude reuse. */
export {
  ANTHROPIC_VERSION,
  type AnthropicAdapterOptions,
  anthropicAdapter,
  createAnthropicAdapter,
} from './adapter.js';
export { type AnthropicBlock, contentBlocks, imageBlock } from './convert-content.js';
export { type AnthropicMessage, type AnthropicPrompt, toAnthropicPrompt } from './convert-messages.js';
export { toAnthropicBody } from './convert-request.js';
export { toAnthropicUsage, toAssistantMessage, toChatCompletion } from './convert-response.js';
export { toAnthropicToolChoice, toAnthropicTools } from './convert-tools.js';
export { ANTHROPIC_ERROR_CODES } from './error-codes.js';
export { readAnthropicError } from './error-map.js';
export { toFinishReason } from './finish-reason.js';
export {
  type AnthropicReasoningInput,
  type AnthropicReasoningParams,
  anthropicReasoningParams,
  DEFAULT_MAX_TOKENS,
} from './reasoning-params.js';
export { anthropicChunks } from './stream-transform.js';
