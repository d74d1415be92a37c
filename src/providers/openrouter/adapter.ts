import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import {
  adaptOpenrouterChatBody,
  adaptOpenrouterHistoryMessage,
  openrouterReasoningHistory,
} from './convert-request.js';
import { adaptOpenrouterCompletion } from './convert-response.js';
import { readOpenrouterError } from './error-map.js';
import { mapOpenrouterFinishReason } from './finish-reason.js';
import { openrouterHeaders } from './headers.js';
import { openrouterReasoningParams } from './reasoning-params.js';
import { createOpenrouterChunkTransform } from './stream-transform.js';

/**
 * OpenRouter (`openrouter/`): `{api_base}/chat/completions` with `Authorization: Bearer` and the
 * attribution headers, default `https://openrouter.ai/api/v1`, key from `OPENROUTER_API_KEY`. The
 * model is OpenRouter's id (`openrouter/anthropic/claude-sonnet-4` calls `anthropic/claude-sonnet-4`).
 */
export const openrouterAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({
    name: 'openrouter',
    defaultApiBase: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    headers: (target) => openrouterHeaders(target),
    reasoningHistory: openrouterReasoningHistory,
    adaptHistoryMessage: adaptOpenrouterHistoryMessage,
    adaptChatBody: adaptOpenrouterChatBody,
    finishReason: mapOpenrouterFinishReason,
    adaptCompletion: adaptOpenrouterCompletion,
    chunkTransform: createOpenrouterChunkTransform,
    readError: readOpenrouterError,
  }),
  prefixes: ['openrouter'],
  reasoningParams: (request) => ({ ...openrouterReasoningParams(request) }),
};
