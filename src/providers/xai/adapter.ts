import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import { adaptXaiChatBody, adaptXaiHistoryMessage, XAI_REASONING_HISTORY } from './convert-request.js';
import { adaptXaiCompletion, adaptXaiUsage } from './convert-response.js';
import { readXaiError } from './error-map.js';
import { xaiReasoningParams } from './reasoning-params.js';
import { createXaiChunkTransform } from './stream-transform.js';

/**
 * xAI (`xai/`): `{api_base}/chat/completions` with `Authorization: Bearer`, default
 * `https://api.x.ai/v1`, key from `XAI_API_KEY`. Reasoning arrives as `reasoning_content` (grok-3-mini),
 * repeated stream deltas are de-duplicated, reasoning tokens count as completion tokens.
 */
export const xaiAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'xai',
    defaultApiBase: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    reasoningHistory: () => XAI_REASONING_HISTORY,
    adaptHistoryMessage: adaptXaiHistoryMessage,
    adaptChatBody: adaptXaiChatBody,
    adaptUsage: adaptXaiUsage,
    adaptCompletion: adaptXaiCompletion,
    chunkTransform: createXaiChunkTransform,
    readError: readXaiError,
  }),
  prefixes: ['xai'],
  reasoningParams: (request, model) => ({ ...xaiReasoningParams(request, model) }),
};
