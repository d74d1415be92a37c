import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/checks/concurrency-limiter.js';
import { type CandidateRules, candidatePool } from '../../src/router/candidates.js';
import type { Endpoint, Tier } from '../../src/types/index.js';
import { cool, endpoint, group, NOW, tracker } from './layers/fixtures.js';

const a = endpoint('a', { parallelLimit: 1 });
const b = endpoint('b', { parallelLimit: 1 });
const c = endpoint('c');
const tier: Tier = group([a, b, c]).tiers[0]!;

function rules(overrides: Partial<CandidateRules> = {}): CandidateRules {
  return {
    tracker: tracker(),
    limiter: new ConcurrencyLimiter(),
    limited: false,
    admits: undefined,
    excluded: undefined,
    timedOut: undefined,
    strictExclusion: false,
    ...overrides,
  };
}

const ids = (endpoints: readonly Endpoint[]) => endpoints.map((e) => e.deployment.id);

describe('candidatePool', () => {
  it('is the tier itself when nothing cools, fails, fills or is checked', () => {
    const pool = candidatePool(tier, rules(), NOW);
    expect(pool.endpoints).toBe(tier.endpoints);
    expect(pool.deployments).toBe(tier.deployments);
    expect(pool.full).toBe(0);
  });

  it('keeps deployments[i] the deployment of endpoints[i]', () => {
    const cooling = rules();
    cool(cooling.tracker, b);
    const pool = candidatePool(tier, cooling, NOW);
    expect(pool.deployments).toEqual(pool.endpoints.map((e) => e.deployment));
  });

  it('leaves out a cooling deployment until its cooldown ends', () => {
    const cooling = rules();
    cool(cooling.tracker, a);
    expect(ids(candidatePool(tier, cooling, NOW).endpoints)).toEqual(['b', 'c']);
    expect(ids(candidatePool(tier, cooling, NOW + a.cooldownMs).endpoints)).toEqual(['a', 'b', 'c']);
  });

  it('leaves out a half-open deployment while its trial call is in flight', () => {
    const halfOpen = rules();
    cool(halfOpen.tracker, a);
    halfOpen.tracker.tryPick('a', NOW + a.cooldownMs);
    expect(ids(candidatePool(tier, halfOpen, NOW + a.cooldownMs).endpoints)).toEqual(['b', 'c']);
  });

  it('leaves out deployments the pre-call checks do not admit', () => {
    const pool = candidatePool(tier, rules({ admits: (e) => e !== b }), NOW);
    expect(ids(pool.endpoints)).toEqual(['a', 'c']);
  });

  it('prefers deployments that have not failed the call', () => {
    const pool = candidatePool(tier, rules({ excluded: new Set(['a', 'c']) }), NOW);
    expect(ids(pool.endpoints)).toEqual(['b']);
  });

  it('offers the failed deployments again when no other is left', () => {
    const pool = candidatePool(tier, rules({ excluded: new Set(['a', 'b', 'c']) }), NOW);
    expect(ids(pool.endpoints)).toEqual(['a', 'b', 'c']);
  });

  it('never offers a failed deployment again under strict exclusion (weighted failover)', () => {
    const pool = candidatePool(
      tier,
      rules({ excluded: new Set(['a', 'b', 'c']), strictExclusion: true }),
      NOW,
    );
    expect(pool.endpoints).toEqual([]);
    expect(pool.full).toBe(0);
  });

  it('never offers a deployment that timed out on the call, even when no other is left', () => {
    const timedOut = new Set(['a', 'b']);
    expect(ids(candidatePool(tier, rules({ excluded: timedOut, timedOut }), NOW).endpoints)).toEqual(['c']);
    const all = new Set(['a', 'b', 'c']);
    expect(candidatePool(tier, rules({ excluded: all, timedOut: all }), NOW).endpoints).toEqual([]);
  });

  it('leaves out deployments at max_parallel_requests and counts them as full', () => {
    const limiter = new ConcurrencyLimiter();
    limiter.tryAcquire('a', 1);
    const pool = candidatePool(tier, rules({ limiter, limited: true }), NOW);
    expect(ids(pool.endpoints)).toEqual(['b', 'c']);
    expect(pool.full).toBe(1);
  });

  it('counts as full only the healthy candidates: a cooling one that is also full is not waited for', () => {
    const limiter = new ConcurrencyLimiter();
    limiter.tryAcquire('a', 1);
    limiter.tryAcquire('b', 1);
    const fullAndCooling = rules({ limiter, limited: true });
    cool(fullAndCooling.tracker, a);
    const pool = candidatePool(group([a, b]).tiers[0]!, fullAndCooling, NOW);
    expect(pool.endpoints).toEqual([]);
    expect(pool.full).toBe(1);
  });

  it('ignores in-flight counts when no endpoint has a limit', () => {
    const limiter = new ConcurrencyLimiter();
    limiter.tryAcquire('c', undefined);
    expect(candidatePool(tier, rules({ limiter }), NOW).endpoints).toBe(tier.endpoints);
  });
});
