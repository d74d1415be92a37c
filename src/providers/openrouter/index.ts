export { openrouterAdapter } from './adapter.js';
export {
  adaptOpenrouterChatBody,
  adaptOpenrouterHistoryMessage,
  openrouterReasoningHistory,
} from './convert-request.js';
export { adaptOpenrouterCompletion } from './convert-response.js';
export { readOpenrouterError } from './error-map.js';
export { mapOpenrouterFinishReason } from './finish-reason.js';
export { openrouterHeaders } from './headers.js';
export {
  isAnthropicModel,
  reasoningDetailsOf,
  thinkingBlockDeltasOf,
  thinkingBlocksOf,
} from './reasoning-details.js';
export { type OpenrouterReasoning, openrouterReasoningParams } from './reasoning-params.js';
export { createOpenrouterChunkTransform } from './stream-transform.js';
