import { describe, expect, it } from 'vitest';
import { KeyRateLimits } from '../../src/proxy/limits/key-rate-limits.js';
import { MemoryStore } from '../../src/stores/memory-store.js';

describe('KeyRateLimits', () => {
  it('admits rpm_limit requests in a minute and refuses the next with 429 and retry-after', async () => {
    let now = 120_000 + 15_000;
    const limits = new KeyRateLimits(new MemoryStore({ now: () => now }), () => now);
    for (let i = 0; i < 3; i++) await limits.admit('k', 3, null);
    const refused = await limits.admit('k', 3, null).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '45' },
    });
    now += 45_000;
    await expect(limits.admit('k', 3, null)).resolves.toBeUndefined();
  });

  it('refuses once the tokens recorded this minute reach tpm_limit', async () => {
    const now = 60_000;
    const limits = new KeyRateLimits(new MemoryStore({ now: () => now }), () => now);
    await limits.admit('k', null, 100);
    limits.recordTokens('k', 100);
    await expect(limits.admit('k', null, 100)).rejects.toMatchObject({ status: 429 });
    await expect(limits.admit('other', null, 100)).resolves.toBeUndefined();
  });
});
