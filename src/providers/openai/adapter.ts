import { createOpenAICompatibleAdapter } from '../openai-compatible/adapter.js';

/** OpenAI (`openai/`): `{api_base}/chat/completions` with `Authorization: Bearer`. */
export const openaiAdapter = createOpenAICompatibleAdapter({
  name: 'openai',
  defaultApiBase: 'https://api.openai.com/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
});
