import { describe, expect, it } from 'vitest';
import { asFiniteNumber } from '../../src/providers/shared/json.js';

describe('asFiniteNumber', () => {
  it('returns a finite number as it is, 0 included', () => {
    expect(asFiniteNumber(12)).toBe(12);
    expect(asFiniteNumber(0)).toBe(0);
  });

  it('returns undefined for a numeric string', () => {
    expect(asFiniteNumber('12')).toBeUndefined();
  });

  it('returns undefined for null and undefined', () => {
    expect(asFiniteNumber(null)).toBeUndefined();
    expect(asFiniteNumber(undefined)).toBeUndefined();
  });

  it('returns undefined for NaN and the infinities', () => {
    expect(asFiniteNumber(Number.NaN)).toBeUndefined();
    expect(asFiniteNumber(Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
