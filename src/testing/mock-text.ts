import type { MockBehavior } from './mock-behavior.js';

/** The default answer when a behavior sets no content. */
export const DEFAULT_CONTENT = 'Hello from the mock provider.';

/** Splits text into stream pieces of a few words each. */
export function pieces(text: string, size = 3): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(''));
  return out.length > 0 ? out : [''];
}

/** Token counts of a mock answer: the behavior's, else rough counts (no cache counts unless set). */
export function mockUsage(
  b: MockBehavior,
  content: string,
): {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
  cache_creation_tokens?: number;
} {
  return {
    prompt_tokens: b.usage?.prompt_tokens ?? 10,
    completion_tokens: b.usage?.completion_tokens ?? Math.max(1, Math.ceil(content.length / 4)),
    ...(b.usage?.cached_tokens !== undefined && { cached_tokens: b.usage.cached_tokens }),
    ...(b.usage?.cache_creation_tokens !== undefined && {
      cache_creation_tokens: b.usage.cache_creation_tokens,
    }),
  };
}

/** A mock usage in OpenAI's shape: cache reads in `prompt_tokens_details.cached_tokens` when set. */
export function openaiUsage(usage: ReturnType<typeof mockUsage>): Record<string, unknown> {
  const { prompt_tokens, completion_tokens, cached_tokens } = usage;
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    ...(cached_tokens !== undefined && { prompt_tokens_details: { cached_tokens } }),
  };
}

/** A tool call's arguments as JSON text. */
export function argumentsText(args: string | Record<string, unknown>): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}
