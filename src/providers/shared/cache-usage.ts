import type { Usage } from '../../types/index.js';

/**
 * The contract's usage for a provider that reports cached input apart from the rest (Anthropic,
 * Bedrock Converse): `prompt_tokens` counts every input token, cached or not (`input + cacheRead +
 * cacheWrite`). When the provider reported either cache count (0 included), `prompt_tokens_details`
 * holds the cache reads as `cached_tokens` and the cache writes as `cache_creation_tokens` (a count
 * left out is 0). Absent counts are 0.
 *
 * @example cacheAwareUsage(12, 16, 3072, 496)
 * // => { prompt_tokens: 3580, completion_tokens: 16, total_tokens: 3596,
 * //      prompt_tokens_details: { cached_tokens: 3072, cache_creation_tokens: 496 } }
 */
export function cacheAwareUsage(
  input: number | undefined,
  output: number | undefined,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
): Usage {
  const prompt = (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const completion = output ?? 0;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  if (cacheRead !== undefined || cacheWrite !== undefined)
    usage.prompt_tokens_details = { cached_tokens: cacheRead ?? 0, cache_creation_tokens: cacheWrite ?? 0 };
  return usage;
}
