import { describe, expect, it } from 'vitest';
import { AlertBuffer } from '../../src/alerting/alert-buffer.js';

describe('AlertBuffer', () => {
  it('keeps at most its capacity, dropping the oldest and counting them', () => {
    const buffer = new AlertBuffer(2);
    expect([buffer.push('a'), buffer.push('b'), buffer.push('c')]).toEqual([true, true, false]);
    expect(buffer.dropped).toBe(1);
    expect(buffer.take(10)).toEqual(['b', 'c']);
  });

  it('puts lines whose delivery failed back in front, dropping the oldest beyond capacity', () => {
    const buffer = new AlertBuffer(3);
    buffer.push('a');
    buffer.push('b');
    const batch = buffer.take(2);
    buffer.push('c');
    buffer.push('d');
    buffer.restore(batch);
    expect(buffer.take(10)).toEqual(['b', 'c', 'd']);
    expect(buffer.takeDropped()).toBe(1);
    expect(buffer.dropped).toBe(0);
  });

  it('is pending while it holds lines or a dropped count to report', () => {
    const buffer = new AlertBuffer(1);
    expect(buffer.pending).toBe(false);
    buffer.addDropped(3);
    expect(buffer.pending).toBe(true);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new AlertBuffer(0)).toThrow('alert buffer capacity must be a positive integer; got 0');
  });
});
