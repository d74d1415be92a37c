import { describe, expect, it } from 'vitest';
import { toAnthropicUsage } from '../../src/providers/anthropic/convert-response.js';
import { toBedrockUsage } from '../../src/providers/bedrock/convert-response.js';
import { cacheAwareUsage } from '../../src/providers/shared/cache-usage.js';

describe('cacheAwareUsage', () => {
  it('counts cache reads and writes in prompt_tokens and total_tokens', () => {
    const usage = cacheAwareUsage(12, 16, 3072, 496);
    expect(usage.prompt_tokens).toBe(12 + 3072 + 496);
    expect(usage.total_tokens).toBe(12 + 3072 + 496 + 16);
  });

  it('reports cache reads as cached_tokens and cache writes as cache_creation_tokens', () => {
    expect(cacheAwareUsage(12, 16, 3072, 496).prompt_tokens_details).toEqual({
      cached_tokens: 3072,
      cache_creation_tokens: 496,
    });
  });

  it('keeps prompt_tokens_details when both cache counts are reported as 0', () => {
    expect(cacheAwareUsage(3, 2, 0, 0)).toEqual({
      prompt_tokens: 3,
      completion_tokens: 2,
      total_tokens: 5,
      prompt_tokens_details: { cached_tokens: 0, cache_creation_tokens: 0 },
    });
  });

  it('reports a missing cache count as 0 when the other one is present', () => {
    expect(cacheAwareUsage(3, 2, 50, undefined).prompt_tokens_details).toEqual({
      cached_tokens: 50,
      cache_creation_tokens: 0,
    });
  });

  it('leaves prompt_tokens_details out when no cache count is reported', () => {
    expect(cacheAwareUsage(3, 2, undefined, undefined)).toEqual({
      prompt_tokens: 3,
      completion_tokens: 2,
      total_tokens: 5,
    });
  });

  it('counts absent input and output as 0', () => {
    expect(cacheAwareUsage(undefined, undefined, undefined, undefined)).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
    });
  });
});

describe('cache-aware usage across providers', () => {
  it('gives Anthropic and Bedrock the same usage for the same counts, zero cache counts included', () => {
    const anthropic = toAnthropicUsage({
      input_tokens: 3,
      output_tokens: 2,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    const bedrock = toBedrockUsage({
      inputTokens: 3,
      outputTokens: 2,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
    });
    expect(bedrock).toEqual(anthropic);
    expect(bedrock.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_creation_tokens: 0 });
  });
});
