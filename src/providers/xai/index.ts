export { xaiAdapter } from './adapter.js';
export { adaptXaiChatBody, adaptXaiHistoryMessage, XAI_REASONING_HISTORY } from './convert-request.js';
export { adaptXaiCompletion, adaptXaiUsage } from './convert-response.js';
export { readXaiError } from './error-map.js';
export { type XaiEffortSupport, xaiEffortSupport, xaiReasoningParams } from './reasoning-params.js';
export { createXaiChunkTransform } from './stream-transform.js';
