import { InternalServerError } from '../../errors/classes.js';
import type { FinishReason } from '../../types/index.js';
import { mapOpenAIFinishReason } from '../openai-compatible/finish-reason.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/**
 * OpenRouter's `finish_reason` is normalized to OpenAI's values, plus `error` when the model behind it
 * failed mid-answer. An `error` comes with an error object (thrown as its class before this runs);
 * alone it is still a failure: InternalServerError, never a silent success.
 */
export function mapOpenrouterFinishReason(raw: string, target: ProviderTarget): FinishReason {
  if (raw === 'error') {
    throw new InternalServerError(
      `${target.provider}/${target.model} ended the answer with finish_reason error`,
      {
        provider: target.provider,
        model: target.model,
        modelId: target.modelId,
      },
    );
  }
  return mapOpenAIFinishReason(raw);
}
