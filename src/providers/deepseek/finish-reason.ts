import { ServiceUnavailableError } from '../../errors/classes.js';
import type { FinishReason } from '../../types/index.js';
import { mapOpenAIFinishReason } from '../openai-compatible/finish-reason.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/**
 * DeepSeek's `finish_reason`: OpenAI's values, plus `insufficient_system_resource` (DeepSeek cut the
 * answer short for lack of inference capacity). That one is a provider failure, not an answer: it
 * throws ServiceUnavailableError so the router retries or fails over instead of returning a truncated
 * text as a success.
 */
export function mapDeepseekFinishReason(raw: string, target: ProviderTarget): FinishReason {
  if (raw === 'insufficient_system_resource') {
    throw new ServiceUnavailableError(
      `${target.provider}/${target.model} interrupted the answer for lack of inference resources ` +
        '(finish_reason insufficient_system_resource)',
      { provider: target.provider, model: target.model, modelId: target.modelId },
    );
  }
  return mapOpenAIFinishReason(raw);
}
