import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../src/spend/spend-writer.js';

describe('retryDelay', () => {
  it('doubles from the base with each failure in a row, within 20% jitter', () => {
    for (const [failures, expected] of [
      [1, 100],
      [2, 200],
      [3, 400],
    ] as const) {
      const delay = retryDelay(failures, 100, 10_000);
      expect(delay).toBeGreaterThanOrEqual(expected * 0.8);
      expect(delay).toBeLessThanOrEqual(expected * 1.2);
    }
  });

  it('never exceeds the cap, however many failures', () => {
    for (const failures of [8, 50, 5_000])
      expect(retryDelay(failures, 100, 1_000)).toBeLessThanOrEqual(1_000);
  });
});
