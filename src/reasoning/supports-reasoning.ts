import { catalogFacts, refOfName } from '../cost/model-facts.js';

/**
 * Whether a model reasons, from the catalog (spec 4.1 rule 6): `supportsReasoning('anthropic/claude-sonnet-4-5')`.
 * Provider prefixes, Bedrock regions and versions, Vertex `@` versions and OpenRouter vendor paths
 * (`openrouter/deepseek/deepseek-r1`) are understood. For a custom model, set
 * `model_info.supports_reasoning` on its deployment (or `supports_reasoning` in `model_cost_map`).
 */
export function supportsReasoning(model: string): boolean {
  return catalogFacts(refOfName(model)).supportsReasoning;
}
