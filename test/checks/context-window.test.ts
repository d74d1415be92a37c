import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { loadTokenCounter, promptTokens, textTokens } from '../../src/checks/token-count.js';

const user = (content: unknown) => ({ messages: [{ role: 'user', content }] });

describe('promptTokens (pre-call checks)', () => {
  it('counts 200,000 characters without a space in linear time (not minutes), and about right', async () => {
    await promptTokens(user('warm up'));
    const start = performance.now();
    const tokens = await promptTokens(user('x'.repeat(200_000)));
    const ms = performance.now() - start;
    expect(ms).toBeLessThan(3000); // whole, it took about a minute
    expect(tokens).toBeGreaterThanOrEqual(4 + 25_000); // 8 `x` a token
    expect(tokens).toBeLessThanOrEqual(4 + 25_000 + 200); // at most one more a slice
  });

  it('counts 100,000 CJK characters in linear time (not a minute)', async () => {
    const text = Array.from({ length: 100_000 }, (_, i) =>
      String.fromCharCode(0x4e00 + ((i * 7919) % 20_000)),
    ).join('');
    await promptTokens(user('warm up'));
    const start = performance.now();
    const tokens = await promptTokens(user(text));
    expect(performance.now() - start).toBeLessThan(3000); // whole, it took about a minute
    expect(tokens).toBeGreaterThan(100_000);
  });

  it('counts a content part whose text is not a string, or throws when read, as nothing', async () => {
    const throwing = {};
    Object.defineProperty(throwing, 'text', {
      get() {
        throw new Error('getter refuses');
      },
    });
    const parts = [{ type: 'text', text: Symbol('s') }, { type: 'text', text: 10n }, throwing];
    const empty = [{ text: '' }, { text: '' }, { text: '' }];
    expect(await promptTokens(user(parts))).toBe(await promptTokens(user(empty)));
  });
});

describe('loadTokenCounter', () => {
  it('says the counts are exact where gpt-tokenizer is installed, and they are its counts', async () => {
    expect(await loadTokenCounter()).toBe('exact');
    const text = 'Routing a call over the pool: 12,345 tokens, café, 東京.';
    expect(await textTokens(text)).toBe(countTokens(text));
  });
});
