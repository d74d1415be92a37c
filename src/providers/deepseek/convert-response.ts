import type { Usage } from '../../types/index.js';

/**
 * DeepSeek's usage: its context-cache hits (`prompt_cache_hit_tokens`) are reported as OpenAI's
 * `prompt_tokens_details.cached_tokens` when DeepSeek did not fill that in itself.
 */
export function adaptDeepseekUsage(usage: Usage, raw: Record<string, unknown>): Usage {
  const hits = raw.prompt_cache_hit_tokens;
  if (typeof hits !== 'number' || usage.prompt_tokens_details?.cached_tokens !== undefined) return usage;
  return { ...usage, prompt_tokens_details: { ...usage.prompt_tokens_details, cached_tokens: hits } };
}
