import type { ChatCompletion } from '../../types/index.js';
import { asRecord } from '../shared/json.js';

/**
 * Azure's content-filter annotations are kept: each choice's `content_filter_results` and the answer's
 * `prompt_filter_results` go to the message's `provider_specific_fields`. A completion Azure filtered
 * (`finish_reason: 'content_filter'`) stays a normal result.
 */
export function adaptAzureCompletion(
  completion: ChatCompletion,
  raw: Record<string, unknown>,
): ChatCompletion {
  const rawChoices = Array.isArray(raw.choices) ? raw.choices : [];
  completion.choices.forEach((choice, i) => {
    const results = asRecord(rawChoices[i])?.content_filter_results;
    const fields: Record<string, unknown> = {};
    if (results) fields.content_filter_results = results;
    if (i === 0 && Array.isArray(raw.prompt_filter_results))
      fields.prompt_filter_results = raw.prompt_filter_results;
    if (Object.keys(fields).length > 0)
      choice.message.provider_specific_fields = { ...choice.message.provider_specific_fields, ...fields };
  });
  return completion;
}
