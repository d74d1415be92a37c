/** Azure OpenAI's reasoning field is OpenAI's: `azureReasoningParams` is `openaiReasoningParams`. */
export { openaiReasoningParams as azureReasoningParams } from '../openai/reasoning-params.js';
export { azureAdapter } from './adapter.js';
export { azureHeaders } from './auth.js';
export { adaptAzureChatBody } from './convert-request.js';
export { adaptAzureCompletion } from './convert-response.js';
export { type EntraCredentials, EntraTokenCache, entraCredentialsOf } from './entra-token.js';
export { readAzureError } from './error-map.js';
export { AZURE_DEFAULT_API_VERSION, azureApiVersion, azureUrl } from './url.js';
