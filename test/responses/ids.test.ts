import { describe, expect, it } from 'vitest';
import { newResponsesId } from '../../src/responses/ids.js';

describe('a Responses API id', () => {
  it('is its kind’s prefix and 48 hex digits', () => {
    for (const prefix of ['resp', 'msg', 'fc', 'rs'] as const)
      expect(newResponsesId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9a-f]{48}$`));
  });

  it('begins with the Unix time it was made, in milliseconds', () => {
    const before = Date.now();
    const id = newResponsesId('resp');
    const after = Date.now();
    const made = Number.parseInt(id.slice('resp_'.length, 'resp_'.length + 12), 16);
    expect(made).toBeGreaterThanOrEqual(before);
    expect(made).toBeLessThanOrEqual(after);
  });

  it('sorts after every id made in an earlier millisecond, and is never made twice', async () => {
    const earlier = Array.from({ length: 1000 }, () => newResponsesId('resp'));
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = newResponsesId('resp');
    for (const id of earlier) expect(id < later).toBe(true);
    expect(new Set([...earlier, later]).size).toBe(1001);
  });
});
