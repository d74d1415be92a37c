import { describe, expect, it } from 'vitest';
import { withoutThinkingConflicts } from '../../src/providers/shared/claude-sampling.js';

const ENABLED = { type: 'enabled' };

describe('withoutThinkingConflicts', () => {
  it('removes a temperature other than 1 with thinking on and drop_params', () => {
    expect(withoutThinkingConflicts({ temperature: 0.2, model: 'm' }, ENABLED, true)).toEqual({ model: 'm' });
  });

  it('keeps temperature 1 with thinking on and drop_params', () => {
    expect(withoutThinkingConflicts({ temperature: 1 }, ENABLED, true)).toEqual({ temperature: 1 });
  });

  it('removes any top_k with thinking on and drop_params', () => {
    expect(withoutThinkingConflicts({ top_k: 40 }, ENABLED, true)).toEqual({});
  });

  it('removes a top_p below 0.95 and keeps one from 0.95 up', () => {
    expect(withoutThinkingConflicts({ top_p: 0.5 }, ENABLED, true)).toEqual({});
    expect(withoutThinkingConflicts({ top_p: 0.95 }, ENABLED, true)).toEqual({ top_p: 0.95 });
  });

  it('treats adaptive thinking like enabled thinking', () => {
    expect(withoutThinkingConflicts({ temperature: 0.2 }, { type: 'adaptive' }, true)).toEqual({});
  });

  it('returns the same fields without drop_params', () => {
    const fields = { temperature: 0.2, top_k: 5 };
    expect(withoutThinkingConflicts(fields, ENABLED, false)).toBe(fields);
  });

  it('returns the same fields when thinking is disabled or absent', () => {
    const fields = { temperature: 0.2, top_k: 5 };
    expect(withoutThinkingConflicts(fields, { type: 'disabled' }, true)).toBe(fields);
    expect(withoutThinkingConflicts(fields, undefined, true)).toBe(fields);
  });
});
