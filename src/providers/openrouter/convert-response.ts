import type { ChatCompletion } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { isAnthropicModel, thinkingBlocksOf } from './reasoning-details.js';

/**
 * OpenRouter's answer: `reasoning` and `reasoning_details` are already read by the shared converter
 * (as `reasoning_content` and `provider_specific_fields.reasoning_details`); for Anthropic models the
 * signed and encrypted details also become `thinking_blocks`.
 */
export function adaptOpenrouterCompletion(
  completion: ChatCompletion,
  _raw: Record<string, unknown>,
  target: ProviderTarget,
): ChatCompletion {
  if (!isAnthropicModel(target.model)) return completion;
  for (const { message } of completion.choices) {
    const blocks = thinkingBlocksOf(message.provider_specific_fields?.reasoning_details);
    if (blocks.length > 0) message.thinking_blocks = blocks;
  }
  return completion;
}
