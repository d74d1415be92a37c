import type { ChunkTransform } from '../openai-compatible/options.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { isAnthropicModel, thinkingBlockDeltasOf } from './reasoning-details.js';

/**
 * OpenRouter's stream: `delta.reasoning` and `delta.reasoning_details` are already read by the shared
 * normalizer; for Anthropic models each `reasoning_details` piece also becomes a `thinking_blocks`
 * delta (text pieces, then the signature piece), as Anthropic's own stream does.
 */
export function createOpenrouterChunkTransform(target: ProviderTarget): ChunkTransform {
  if (!isAnthropicModel(target.model)) return (chunk) => chunk;
  return (chunk) => {
    for (const { delta } of chunk.choices) {
      const blocks = thinkingBlockDeltasOf(delta.provider_specific_fields?.reasoning_details);
      if (blocks.length > 0) delta.thinking_blocks = blocks;
    }
    return chunk;
  };
}
