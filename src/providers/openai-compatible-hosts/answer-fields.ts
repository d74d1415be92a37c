import type { ChatCompletion } from '../../types/index.js';

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

/**
 * Keeps a host's own top-level answer fields (Perplexity's `citations` and `search_results`) in the
 * first message's `provider_specific_fields`, where the contract envelope carries provider extras.
 */
export function keepAnswerFields(fields: readonly string[]) {
  return (completion: ChatCompletion, raw: Record<string, unknown>): ChatCompletion => {
    const message = completion.choices[0]?.message;
    if (!message) return completion;
    for (const field of fields) {
      if (!present(raw[field])) continue;
      message.provider_specific_fields = { ...message.provider_specific_fields, [field]: raw[field] };
    }
    return completion;
  };
}
