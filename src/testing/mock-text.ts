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

/** Token counts of a mock answer: the behavior's, else rough counts. */
export function mockUsage(
  b: MockBehavior,
  content: string,
): { prompt_tokens: number; completion_tokens: number } {
  return {
    prompt_tokens: b.usage?.prompt_tokens ?? 10,
    completion_tokens: b.usage?.completion_tokens ?? Math.max(1, Math.ceil(content.length / 4)),
  };
}

/** A tool call's arguments as JSON text. */
export function argumentsText(args: string | Record<string, unknown>): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}
