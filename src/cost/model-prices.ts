/** What the cost map knows of a model. Prices are dollars per token. */
export interface ModelPrice {
  max_input_tokens: number;
  max_output_tokens?: number;
  input_cost_per_token: number;
  output_cost_per_token: number;
  supports_reasoning?: boolean;
  mode: 'chat' | 'embedding' | 'completion' | 'image_generation';
}

const chat = (
  max_input_tokens: number,
  input: number,
  output: number,
  supports_reasoning = false,
  max_output_tokens?: number,
): ModelPrice => ({
  max_input_tokens,
  input_cost_per_token: input,
  output_cost_per_token: output,
  mode: 'chat',
  ...(supports_reasoning ? { supports_reasoning } : {}),
  ...(max_output_tokens ? { max_output_tokens } : {}),
});
const embedding = (max_input_tokens: number, input: number): ModelPrice => ({
  max_input_tokens,
  input_cost_per_token: input,
  output_cost_per_token: 0,
  mode: 'embedding',
});

/**
 * The model cost map (`svc_model_cost_map`): public list prices and context windows of the common
 * models of every supported provider, keyed by the provider's base model name. Versioned names
 * (`claude-sonnet-4-5-20250929`, `anthropic.claude-3-7-sonnet-20250219-v1:0`) resolve through
 * `lookupModelPrice`.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI
  'gpt-3.5-turbo': chat(16_385, 5e-7, 1.5e-6),
  'gpt-4': chat(8_192, 3e-5, 6e-5),
  'gpt-4-turbo': chat(128_000, 1e-5, 3e-5),
  'gpt-4o': chat(128_000, 2.5e-6, 1e-5, false, 16_384),
  'gpt-4o-mini': chat(128_000, 1.5e-7, 6e-7, false, 16_384),
  'gpt-4.1': chat(1_047_576, 2e-6, 8e-6, false, 32_768),
  'gpt-4.1-mini': chat(1_047_576, 4e-7, 1.6e-6, false, 32_768),
  'gpt-4.1-nano': chat(1_047_576, 1e-7, 4e-7, false, 32_768),
  'gpt-5': chat(272_000, 1.25e-6, 1e-5, true, 128_000),
  'gpt-5-mini': chat(272_000, 2.5e-7, 2e-6, true, 128_000),
  'gpt-5-nano': chat(272_000, 5e-8, 4e-7, true, 128_000),
  o1: chat(200_000, 1.5e-5, 6e-5, true, 100_000),
  'o1-mini': chat(128_000, 1.1e-6, 4.4e-6, true, 65_536),
  o3: chat(200_000, 2e-6, 8e-6, true, 100_000),
  'o3-mini': chat(200_000, 1.1e-6, 4.4e-6, true, 100_000),
  'o4-mini': chat(200_000, 1.1e-6, 4.4e-6, true, 100_000),
  'text-embedding-3-small': embedding(8_191, 2e-8),
  'text-embedding-3-large': embedding(8_191, 1.3e-7),
  'text-embedding-ada-002': embedding(8_191, 1e-7),
  'gpt-3.5-turbo-instruct': { ...chat(4_096, 1.5e-6, 2e-6), mode: 'completion' },
  'dall-e-3': {
    max_input_tokens: 4_000,
    input_cost_per_token: 0,
    output_cost_per_token: 0,
    mode: 'image_generation',
  },
  'gpt-image-1': {
    max_input_tokens: 32_000,
    input_cost_per_token: 5e-6,
    output_cost_per_token: 4e-5,
    mode: 'image_generation',
  },
  // Anthropic (direct, Bedrock, Vertex AI)
  'claude-3-haiku': chat(200_000, 2.5e-7, 1.25e-6, false, 4_096),
  'claude-3-opus': chat(200_000, 1.5e-5, 7.5e-5, false, 4_096),
  'claude-3-5-haiku': chat(200_000, 8e-7, 4e-6, false, 8_192),
  'claude-3-5-sonnet': chat(200_000, 3e-6, 1.5e-5, false, 8_192),
  'claude-3-7-sonnet': chat(200_000, 3e-6, 1.5e-5, true, 128_000),
  'claude-sonnet-4': chat(200_000, 3e-6, 1.5e-5, true, 64_000),
  'claude-sonnet-4-5': chat(200_000, 3e-6, 1.5e-5, true, 64_000),
  'claude-opus-4': chat(200_000, 1.5e-5, 7.5e-5, true, 32_000),
  'claude-opus-4-1': chat(200_000, 1.5e-5, 7.5e-5, true, 32_000),
  'claude-opus-4-5': chat(200_000, 5e-6, 2.5e-5, true, 64_000),
  'claude-haiku-4-5': chat(200_000, 1e-6, 5e-6, true, 64_000),
  // Google (AI Studio, Vertex AI)
  'gemini-1.5-pro': chat(2_097_152, 1.25e-6, 5e-6, false, 8_192),
  'gemini-1.5-flash': chat(1_048_576, 7.5e-8, 3e-7, false, 8_192),
  'gemini-2.0-flash': chat(1_048_576, 1e-7, 4e-7, false, 8_192),
  'gemini-2.0-flash-lite': chat(1_048_576, 7.5e-8, 3e-7, false, 8_192),
  'gemini-2.5-pro': chat(1_048_576, 1.25e-6, 1e-5, true, 65_535),
  'gemini-2.5-flash': chat(1_048_576, 3e-7, 2.5e-6, true, 65_535),
  'gemini-2.5-flash-lite': chat(1_048_576, 1e-7, 4e-7, true, 65_535),
  'gemini-3-pro-preview': chat(1_048_576, 2e-6, 1.2e-5, true, 65_535),
  'text-embedding-004': embedding(2_048, 0),
  'gemini-embedding-001': embedding(2_048, 1.5e-7),
  // DeepSeek
  'deepseek-chat': chat(128_000, 2.7e-7, 1.1e-6, false, 8_192),
  'deepseek-reasoner': chat(128_000, 5.5e-7, 2.19e-6, true, 64_000),
  // xAI
  'grok-2': chat(131_072, 2e-6, 1e-5),
  'grok-3': chat(131_072, 3e-6, 1.5e-5),
  'grok-3-mini': chat(131_072, 3e-7, 5e-7, true),
  'grok-4': chat(256_000, 3e-6, 1.5e-5, true),
  // Amazon, Meta, Mistral on Bedrock
  'amazon.nova-pro': chat(300_000, 8e-7, 3.2e-6, false, 10_000),
  'amazon.nova-lite': chat(300_000, 6e-8, 2.4e-7, false, 10_000),
  'amazon.titan-embed-text-v2': embedding(8_192, 2e-8),
  'llama3-3-70b-instruct': chat(128_000, 7.2e-7, 7.2e-7),
  'mistral-large': chat(128_000, 2e-6, 6e-6),
});
