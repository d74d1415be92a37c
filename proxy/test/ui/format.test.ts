import { describe, expect, it } from 'vitest';
import { axisTicks, compactTime, money, relativeTime, shorten } from '../../ui/src/format.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('admin page formatting', () => {
  it('shows dollars with 2 decimals and thousands separators', () => {
    expect([money(0), money(5), money(12.5), money(1234.567)]).toEqual([
      '$0.00',
      '$5.00',
      '$12.50',
      '$1,234.57',
    ]);
  });

  it('keeps two significant digits under a cent, so a small cost is not $0.00', () => {
    expect([money(0.0042), money(0.000026), money(0.003)]).toEqual(['$0.0042', '$0.000026', '$0.003']);
  });

  it('shows a dash for no value', () => {
    expect(money(null)).toBe('—');
  });

  it('says how long ago or ahead a time is, and its day once a week or more away', () => {
    const at = (ms: number) => relativeTime(NOW + ms, NOW);
    expect([at(-10_000), at(30_000), at(-5 * 60_000), at(3 * 3_600_000), at(-2 * 86_400_000)]).toEqual([
      'just now',
      'in 30 s',
      '5 min ago',
      'in 3 h',
      '2 d ago',
    ]);
    expect(at(30 * 86_400_000)).toBe('2026-12-26');
  });

  it('shows a call of today by its time, of another day with its month and day', () => {
    expect(compactTime('2026-11-26T09:08:07Z', NOW)).toBe('09:08:07');
    expect(compactTime('2026-11-25T23:59:00Z', NOW)).toBe('11-25 23:59');
  });

  it('cuts a long id around an ellipsis to the length asked', () => {
    const cut = shorten('a'.repeat(40) + 'b'.repeat(24), 24);
    expect(cut).toHaveLength(24);
    expect(cut).toMatch(/^a+…b+$/);
    expect(shorten('short', 24)).toBe('short');
  });

  it('steps the value axis at 1, 2 or 5 times a power of ten, from 0 past the maximum', () => {
    expect(axisTicks(0.0042)).toEqual([0, 0.001, 0.002, 0.003, 0.004, 0.005]);
    expect(axisTicks(87)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(axisTicks(0)).toEqual([0]);
  });
});
