import { lookupModelPrice } from '../cost/lookup.js';

/**
 * Whether a model reasons, from the cost map (spec 4.1 rule 6): `supportsReasoning('anthropic/claude-sonnet-4-5')`.
 * Provider prefixes, Bedrock/Vertex version suffixes and OpenRouter vendor paths are understood. For a
 * custom model, set `model_info.supports_reasoning` on its deployment instead.
 */
export function supportsReasoning(model: string): boolean {
  return lookupModelPrice(model)?.supports_reasoning ?? false;
}
