import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import { adaptDeepseekChatBody, DEEPSEEK_REASONING_HISTORY } from './convert-request.js';
import { adaptDeepseekUsage } from './convert-response.js';
import { readDeepseekError } from './error-map.js';
import { mapDeepseekFinishReason } from './finish-reason.js';
import { deepseekReasoningParams } from './reasoning-params.js';

/**
 * DeepSeek (`deepseek/`): `{api_base}/chat/completions` with `Authorization: Bearer`, default
 * `https://api.deepseek.com`, key from `DEEPSEEK_API_KEY`. Reasoning arrives as `reasoning_content`
 * (messages and stream deltas) and is taken back on later turns.
 */
export const deepseekAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'deepseek',
    defaultApiBase: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    reasoningHistory: () => DEEPSEEK_REASONING_HISTORY,
    adaptChatBody: adaptDeepseekChatBody,
    finishReason: mapDeepseekFinishReason,
    adaptUsage: adaptDeepseekUsage,
    readError: readDeepseekError,
  }),
  prefixes: ['deepseek'],
  reasoningParams: (request) => ({ ...deepseekReasoningParams(request) }),
};
