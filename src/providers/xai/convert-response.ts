import type { ChatCompletion, Usage } from '../../types/index.js';

/**
 * xAI counts reasoning tokens outside `completion_tokens` (its `total_tokens` is prompt + completion +
 * reasoning). They are folded into `completion_tokens`, as OpenAI counts them, so costs and token
 * limits see every output token; `total_tokens` stays as xAI reported it. A usage that already
 * includes them (total = prompt + completion) is left alone.
 */
export function adaptXaiUsage(usage: Usage): Usage {
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning !== 'number' || reasoning <= 0) return usage;
  if (usage.total_tokens < usage.prompt_tokens + usage.completion_tokens + reasoning) return usage;
  return { ...usage, completion_tokens: usage.completion_tokens + reasoning };
}

/** xAI's Live Search `citations` (top level of the answer) go to the message's `provider_specific_fields`. */
export function adaptXaiCompletion(completion: ChatCompletion, raw: Record<string, unknown>): ChatCompletion {
  const citations = raw.citations;
  const message = completion.choices[0]?.message;
  if (!Array.isArray(citations) || citations.length === 0 || !message) return completion;
  message.provider_specific_fields = { ...message.provider_specific_fields, citations };
  return completion;
}
