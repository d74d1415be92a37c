import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import {
  adaptDeepseekChatBody,
  DEEPSEEK_REASONING_HISTORY,
  deepseekChatPath,
  deepseekUrl,
} from './convert-request.js';
import { adaptDeepseekUsage } from './convert-response.js';
import { readDeepseekError } from './error-map.js';
import { mapDeepseekFinishReason } from './finish-reason.js';
import { deepseekReasoningParams } from './reasoning-params.js';

/**
 * DeepSeek (`deepseek/`): `{api_base}/chat/completions` with `Authorization: Bearer`, default
 * `https://api.deepseek.com`, key from `DEEPSEEK_API_KEY`. Reasoning arrives as `reasoning_content`
 * (messages and stream deltas) and is taken back on later turns. A chat whose last message is an
 * assistant prefix (`prefix: true`) goes to DeepSeek's beta API, the only one that serves it.
 */
export const deepseekAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'deepseek',
    defaultApiBase: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    reasoningHistory: () => DEEPSEEK_REASONING_HISTORY,
    adaptChatBody: adaptDeepseekChatBody,
    chatPath: deepseekChatPath,
    url: deepseekUrl,
    finishReason: mapDeepseekFinishReason,
    adaptUsage: adaptDeepseekUsage,
    readError: readDeepseekError,
  }),
  prefixes: ['deepseek'],
  reasoningParams: (request) => ({ ...deepseekReasoningParams(request) }),
};
