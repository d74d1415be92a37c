/** Amazon Bedrock: the `bedrock/` adapter (Converse, ConverseStream, InvokeModel embeddings) and its parts. */
export { bedrockAdapter } from './adapter.js';
export {
  authorizedHeaders,
  type BedrockAuth,
  bedrockApiBase,
  bedrockAuth,
  bedrockProblems,
  bedrockRegion,
} from './aws-auth.js';
export {
  type BedrockBlock,
  type BedrockImageSource,
  type BedrockReasoningBlock,
  contentBlocks,
  imageBlock,
} from './convert-content.js';
export {
  type BedrockMessage,
  type BedrockPrompt,
  hasToolHistory,
  toBedrockPrompt,
} from './convert-messages.js';
export { toConverseBody } from './convert-request.js';
export { toAssistantMessage, toBedrockUsage, toChatCompletion, toThinkingBlock } from './convert-response.js';
export {
  type BedrockToolChoice,
  type BedrockToolConfig,
  type BedrockToolSpec,
  toToolConfig,
} from './convert-tools.js';
export { type EmbeddingFamily, embeddingFamily, toEmbeddingBody, toEmbeddingResponse } from './embeddings.js';
export { BEDROCK_ERROR_CODES } from './error-codes.js';
export { bedrockErrorCode, errorTypeOf, readBedrockError } from './error-map.js';
export { decodeEventStream, type EventStreamFrame } from './event-stream.js';
export { toFinishReason } from './finish-reason.js';
export { type BedrockAction, bedrockModelId, bedrockUrl, isClaudeModel } from './model-id.js';
export {
  type BedrockReasoningInput,
  type BedrockReasoningParams,
  bedrockReasoningParams,
  DEFAULT_MAX_TOKENS,
} from './reasoning-params.js';
export { bedrockChunks } from './stream-transform.js';
