import { MemoryStore } from '@svc/router';
import { describe, expect, it } from 'vitest';
import type { LimitedOwner } from '../src/limits/limited-owner.js';
import { RateLimits } from '../src/limits/rate-limits.js';

/** An owner with the given per-minute limits. */
const owner = (rpmLimit: number | null, tpmLimit: number | null, id = 'k'): LimitedOwner => ({
  id,
  level: id === 'k' ? 'key' : 'team',
  rowId: id,
  label: id === 'k' ? 'key `k`' : `team \`${id}\``,
  maxBudget: null,
  spend: 0,
  softBudget: null,
  budgetResetAt: null,
  rpmLimit,
  tpmLimit,
});

describe('RateLimits', () => {
  it('admits rpm_limit requests in a minute and refuses the next with 429 and retry-after', async () => {
    let now = 120_000 + 15_000;
    const limits = new RateLimits(new MemoryStore({ now: () => now }), () => now);
    for (let i = 0; i < 3; i++) await limits.admit(owner(3, null));
    const refused = await limits.admit(owner(3, null)).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '45' },
      message: 'Key `k` is over its rpm_limit of 3 this minute; try again in 45 seconds.',
    });
    now += 45_000;
    await expect(limits.admit(owner(3, null))).resolves.toBeUndefined();
  });

  it('refuses once the tokens recorded this minute reach tpm_limit', async () => {
    const now = 60_000;
    const limits = new RateLimits(new MemoryStore({ now: () => now }), () => now);
    await limits.admit(owner(null, 100));
    limits.recordTokens('k', 100);
    await expect(limits.admit(owner(null, 100))).rejects.toMatchObject({ status: 429 });
    await expect(limits.admit(owner(null, 100, 'other'))).resolves.toBeUndefined();
  });

  it('names a team over its limit', async () => {
    const now = 60_000;
    const limits = new RateLimits(new MemoryStore({ now: () => now }), () => now);
    await limits.admit(owner(1, null, 'ads'));
    await expect(limits.admit(owner(1, null, 'ads'))).rejects.toThrow(
      'Team `ads` is over its rpm_limit of 1',
    );
  });
});
