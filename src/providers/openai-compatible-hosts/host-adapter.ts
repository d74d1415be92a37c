import { openaiReasoningParams } from '../openai/reasoning-params.js';
import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';
import type { OpenAICompatibleOptions } from '../openai-compatible/options.js';
import type { ProviderAdapter } from '../shared/provider-adapter.js';
import { problemsOf } from '../shared/validate.js';
import { keepAnswerFields } from './answer-fields.js';
import { hostChatBody } from './chat-body.js';
import type { OpenAICompatibleHost } from './host.js';
import { requiredBaseUrl } from './required-base.js';

// a host without a default endpoint needs `api_base`: its URL refuses without one, checked at construction
function endpointHooks(host: OpenAICompatibleHost): Partial<OpenAICompatibleOptions> {
  if (host.apiBase) return { defaultApiBase: host.apiBase };
  const url = requiredBaseUrl(host);
  return { url, validate: (target) => problemsOf(() => url(target, 'chat/completions')) };
}

/**
 * The provider adapter of an OpenAI-compatible host: the OpenAI-compatible base with the host's
 * endpoint, key variables and quirks (`OpenAICompatibleHost`). Reasoning controls are sent as OpenAI
 * sends them (`reasoning_effort`).
 *
 * @example
 * const groq = hostAdapter({ name: 'groq', apiBase: 'https://api.groq.com/openai/v1', apiKeyEnv: ['GROQ_API_KEY'] });
 */
export function hostAdapter(host: OpenAICompatibleHost): ProviderAdapter {
  return {
    ...createOpenAICompatibleAdapter({
      name: host.name,
      ...endpointHooks(host),
      apiKeyEnv: host.apiKeyEnv,
      apiKeyOptional: host.apiKeyOptional,
      streamUsage: host.streamUsage,
      adaptChatBody: hostChatBody(host),
      ...(host.answerFields ? { adaptCompletion: keepAnswerFields(host.answerFields) } : {}),
    }),
    prefixes: [host.name],
    reasoningParams: (request) => ({ ...openaiReasoningParams(request) }),
  };
}
