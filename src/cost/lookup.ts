import { catalogFacts, refOfName } from './model-facts.js';

/** What the catalog knows of a model. Prices are dollars per token (LiteLLM's field names). */
export interface ModelPrice {
  /** The context window, when the catalog knows it. */
  max_input_tokens?: number;
  input_cost_per_token: number;
  output_cost_per_token: number;
  /** Prompt tokens read from the provider's cache (the input price when the catalog has none). */
  cache_read_input_token_cost: number;
  /** Prompt tokens written to the provider's cache (the input price when the catalog has none). */
  cache_creation_input_token_cost: number;
  supports_reasoning: boolean;
}

/**
 * The catalog's prices and facts for a model, written `<provider>/<model>` as in `svc_params.model`
 * (`openrouter/anthropic/claude-3.7-sonnet`, `bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0`)
 * or as a bare id (`gpt-4o`, whose provider the catalog recognises). Long-context tiers are not shown:
 * these are the base prices. Undefined when the catalog has no price for it. A router's
 * `model_cost_map` file and deployment prices are not consulted here.
 *
 * @example lookupModelPrice('openai/gpt-4o')?.input_cost_per_token // 2.5e-6
 */
export function lookupModelPrice(model: string): ModelPrice | undefined {
  const facts = catalogFacts(refOfName(model));
  const { prices } = facts;
  if (!prices) return undefined;
  return {
    ...(facts.maxInputTokens !== undefined && { max_input_tokens: facts.maxInputTokens }),
    input_cost_per_token: prices.input,
    output_cost_per_token: prices.output,
    cache_read_input_token_cost: prices.cacheRead,
    cache_creation_input_token_cost: prices.cacheWrite,
    supports_reasoning: facts.supportsReasoning,
  };
}
