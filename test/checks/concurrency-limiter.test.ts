import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/checks/concurrency-limiter.js';

describe('ConcurrencyLimiter', () => {
  it('says some deployment is at its limit from the slot that fills it until one is given back', () => {
    const limiter = new ConcurrencyLimiter();
    expect(limiter.tryAcquire('a', 2)).toBe(true);
    expect(limiter.anyAtLimit).toBe(false);
    expect(limiter.tryAcquire('a', 2)).toBe(true);
    expect(limiter.anyAtLimit).toBe(true);
    expect(limiter.tryAcquire('a', 2)).toBe(false);
    limiter.release('a');
    expect(limiter.anyAtLimit).toBe(false);
    expect(limiter.hasRoom('a', 2)).toBe(true);
  });

  it('marks a deployment found over a lowered limit when a slot is refused', () => {
    const limiter = new ConcurrencyLimiter();
    for (let i = 0; i < 3; i++) limiter.tryAcquire('a', undefined);
    expect(limiter.anyAtLimit).toBe(false);
    expect(limiter.tryAcquire('a', 2)).toBe(false);
    expect(limiter.anyAtLimit).toBe(true);
  });

  it('gives a live counter that follows the deployment’s count', () => {
    const limiter = new ConcurrencyLimiter();
    const counter = limiter.counter('a');
    limiter.tryAcquire('a', undefined);
    limiter.tryAcquire('a', undefined);
    expect(counter.value).toBe(2);
    limiter.release('a');
    limiter.release('a');
    limiter.release('a'); // one release too many never goes below zero
    expect(counter.value).toBe(0);
    expect(limiter.counter('a')).toBe(counter);
  });
});
