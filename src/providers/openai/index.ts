export { openaiAdapter } from './adapter.js';
export { adaptOpenAIChatBody } from './convert-request.js';
export { openaiModelReasons, openaiReasoningParams } from './reasoning-params.js';
