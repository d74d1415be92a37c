import { openaiReasoningParams } from '../openai/reasoning-params.js';
import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import { problemsOf } from '../shared/validate.js';
import { azureHeaders } from './auth.js';
import { adaptAzureChatBody } from './convert-request.js';
import { adaptAzureCompletion } from './convert-response.js';
import { readAzureError } from './error-map.js';
import { azureUrl } from './url.js';

/**
 * Azure OpenAI (`azure/<deployment>`):
 * `{api_base}/openai/deployments/{deployment}/chat/completions?api-version={api_version}` (and
 * `/embeddings`, `/completions`, `/images/generations`), auth by `api-key`, `azure_ad_token` or Entra ID
 * client credentials. `api_base` is required. Earlier assistant turns may carry neither
 * `thinking_blocks` nor `reasoning_content`, as on OpenAI.
 */
export const azureAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'azure',
    apiKeyEnv: 'AZURE_API_KEY',
    url: (target, path) => azureUrl(target, path),
    headers: (target, options) => azureHeaders(target, options),
    reasoningHistory: () => ({ thinkingBlocks: false, reasoningContent: false }),
    adaptChatBody: adaptAzureChatBody,
    adaptCompletion: adaptAzureCompletion,
    readError: readAzureError,
    validate: (target) => problemsOf(() => azureUrl(target, 'chat/completions')),
  }),
  prefixes: ['azure'],
  // Azure OpenAI's reasoning field is OpenAI's
  reasoningParams: (request) => ({ ...openaiReasoningParams(request) }),
};
