import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import { adaptOpenAIChatBody } from './convert-request.js';
import { openaiReasoningParams } from './reasoning-params.js';

/**
 * OpenAI (`openai/`): `{api_base}/chat/completions` with `Authorization: Bearer`. Earlier assistant
 * turns may carry neither `thinking_blocks` nor `reasoning_content` (OpenAI rejects unknown message
 * fields): they fail the call unless `drop_params` removes them.
 */
export const openaiAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'openai',
    defaultApiBase: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    reasoningHistory: () => ({ thinkingBlocks: false, reasoningContent: false }),
    adaptChatBody: (body, target, options) => adaptOpenAIChatBody(body, target.model, options),
  }),
  prefixes: ['openai'],
  reasoningParams: (request) => ({ ...openaiReasoningParams(request) }),
};
