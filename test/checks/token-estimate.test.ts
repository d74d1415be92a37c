import { readdirSync, readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/checks/token-estimate.js';

// A fixed sample: English prose, code (TypeScript and Python), JSON, Markdown, a chat log with a URL
// and an emoji, German, Russian, Chinese, Japanese, Korean, CSV numbers.
const dir = new URL('../fixtures/tokens/', import.meta.url);
const sample = readdirSync(dir)
  .filter((name) => name.endsWith('.txt'))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }));

describe('estimateTokens (token counts without gpt-tokenizer)', () => {
  it.each(sample)('estimates $name within 15% of the exact o200k_base count', ({ text }) => {
    const exact = countTokens(text);
    expect(Math.abs(estimateTokens(text) / exact - 1)).toBeLessThanOrEqual(0.15);
  });

  it('estimates the whole sample within 3% of the exact count', () => {
    expect(sample.length).toBeGreaterThanOrEqual(11);
    const exact = sample.reduce((n, s) => n + countTokens(s.text), 0);
    const estimate = sample.reduce((n, s) => n + estimateTokens(s.text), 0);
    expect(Math.abs(estimate / exact - 1)).toBeLessThanOrEqual(0.03);
  });

  it('counts a megabyte of mixed text in linear time', () => {
    const text = sample
      .map((s) => s.text)
      .join('\n')
      .repeat(125); // about 1 MB
    const start = performance.now();
    const tokens = estimateTokens(text);
    expect(performance.now() - start).toBeLessThan(2000); // about 100 ms on an idle machine
    expect(tokens).toBeGreaterThan(200_000);
  });

  it('counts empty text as no tokens and one word as one', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('hello')).toBe(1);
  });
});
