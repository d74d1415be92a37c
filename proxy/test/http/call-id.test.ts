import { describe, expect, it } from 'vitest';
import { newCallId } from '../../src/http/call-id.js';

const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (id: string) => Number.parseInt(id.replace('-', '').slice(0, 12), 16);

describe('a call id', () => {
  it('is a UUID of version 7, variant 10 (RFC 9562)', () => {
    for (let i = 0; i < 1000; i++) expect(newCallId()).toMatch(VERSION_7);
  });

  it('carries the Unix time it was made, in milliseconds, in its first 48 bits', () => {
    const before = Date.now();
    const id = newCallId();
    const after = Date.now();
    expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisecondsOf(id)).toBeLessThanOrEqual(after);
  });

  it('sorts after every id made in an earlier millisecond', async () => {
    const earlier = Array.from({ length: 50 }, newCallId);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = newCallId();
    for (const id of earlier) expect(id < later).toBe(true);
  });

  it('is never made twice, across many draws of random bytes', () => {
    // 256 ids per draw: 100,000 ids span about 390 draws, most of them within the same milliseconds
    const ids = new Set(Array.from({ length: 100_000 }, newCallId));
    expect(ids.size).toBe(100_000);
  });
});
