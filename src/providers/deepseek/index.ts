export { deepseekAdapter } from './adapter.js';
export { adaptDeepseekChatBody, DEEPSEEK_REASONING_HISTORY } from './convert-request.js';
export { adaptDeepseekUsage } from './convert-response.js';
export { readDeepseekError } from './error-map.js';
export { mapDeepseekFinishReason } from './finish-reason.js';
export { type DeepseekReasoningFields, deepseekReasoningParams } from './reasoning-params.js';
