import type { OpenAICompatibleHost } from './host.js';

/**
 * The OpenAI-compatible hosts with a prefix of their own (CONTRACT 6.7), in the order they register.
 * Bases and key variables are the hosts' documented ones; the first key variable is the contract's,
 * a second one the name the host's own SDK reads. docs/providers/openai-compatible.md cites the
 * source of every quirk.
 */
export const OPENAI_COMPATIBLE_HOSTS: readonly OpenAICompatibleHost[] = Object.freeze([
  {
    name: 'groq',
    apiBase: 'https://api.groq.com/openai/v1',
    apiKeyEnv: ['GROQ_API_KEY'],
    // Groq's "OpenAI compatibility" page: these fail with a 400, and `n` must be 1
    refuses: ['logprobs', 'top_logprobs', 'logit_bias', 'n'],
    refusesMessageName: true,
  },
  {
    name: 'mistral',
    apiBase: 'https://api.mistral.ai/v1',
    apiKeyEnv: ['MISTRAL_API_KEY'],
    // Mistral validates strictly (422 `extra_forbidden`): its own names for the limit and the seed,
    // no `stream_options` (the usage comes in the last chunk anyway), no `name` outside tool messages
    renames: { max_completion_tokens: 'max_tokens', seed: 'random_seed' },
    refusesMessageName: true,
    streamUsage: false,
  },
  {
    name: 'together_ai',
    apiBase: 'https://api.together.xyz/v1',
    apiKeyEnv: ['TOGETHERAI_API_KEY', 'TOGETHER_API_KEY'],
  },
  {
    name: 'fireworks_ai',
    apiBase: 'https://api.fireworks.ai/inference/v1',
    apiKeyEnv: ['FIREWORKS_AI_API_KEY', 'FIREWORKS_API_KEY'],
  },
  {
    name: 'cerebras',
    apiBase: 'https://api.cerebras.ai/v1',
    apiKeyEnv: ['CEREBRAS_API_KEY'],
    // Cerebras's OpenAI-compatibility page: these fail with a 400
    refuses: ['frequency_penalty', 'presence_penalty', 'logit_bias', 'parallel_tool_calls', 'service_tier'],
  },
  {
    name: 'perplexity',
    apiBase: 'https://api.perplexity.ai',
    apiKeyEnv: ['PERPLEXITYAI_API_KEY', 'PERPLEXITY_API_KEY'],
    // the search fields of a request (`search_domain_filter`, ...) pass through as given
    answerFields: ['citations', 'search_results', 'images', 'related_questions'],
  },
  {
    name: 'deepinfra',
    apiBase: 'https://api.deepinfra.com/v1/openai',
    apiKeyEnv: ['DEEPINFRA_API_KEY'],
  },
  // local servers: Ollama takes no key at all, LM Studio and vLLM only when started with one
  { name: 'ollama', apiBase: 'http://localhost:11434/v1' },
  {
    name: 'lm_studio',
    apiBase: 'http://localhost:1234/v1',
    apiKeyEnv: ['LM_STUDIO_API_KEY'],
    apiKeyOptional: true,
  },
  {
    name: 'hosted_vllm',
    apiBaseExample: 'http://localhost:8000/v1',
    apiKeyEnv: ['HOSTED_VLLM_API_KEY'],
    apiKeyOptional: true,
  },
]);
