export { type GeminiEndpoint, type GeminiMethod, geminiAdapter, geminiChatOperations } from './adapter.js';
export { toGeminiBody } from './convert-request.js';
export { toChatCompletion, toGeminiUsage } from './convert-response.js';
export { GOOGLE_ERROR_CODES } from './error-codes.js';
export { readGoogleError } from './error-map.js';
export { toFinishReason } from './finish-reason.js';
export {
  type GeminiReasoningInput,
  type GeminiThinkingConfig,
  geminiReasoningParams,
  usesThinkingLevel,
} from './reasoning-params.js';
export { geminiChunks } from './stream-transform.js';
