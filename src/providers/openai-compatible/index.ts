export {
  EFFORT_BUDGETS,
  effortForBudget,
  type ReasoningControls,
  type ReasoningIntent,
  reasoningIntent,
  withoutReasoningControls,
} from '../shared/reasoning-controls.js';
export {
  type ChunkTransform,
  createOpenAICompatibleAdapter,
  type OpenAICompatibleOptions,
} from './adapter.js';
export { toWireMessages } from './convert-messages.js';
export { toChatBody, toOpenAIBody, toOpenAIStreamBody } from './convert-request.js';
export { toAssistantMessage, toChatCompletion, toUsage } from './convert-response.js';
export { inBandError, readOpenAIError } from './error-map.js';
export { mapOpenAIFinishReason } from './finish-reason.js';
export { openAIChunks } from './stream-transform.js';
