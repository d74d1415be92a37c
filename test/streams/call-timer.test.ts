import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { seconds } from '../../src/providers/shared/call-timer.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { clampTimerMs, MAX_TIMER_MS } from '../../src/shared/timers.js';
import { REQUEST, streamSuite, targetOf } from './helpers.js';

const suite = streamSuite();

describe('clampTimerMs', () => {
  it('keeps a delay Node takes as is', () => {
    expect(clampTimerMs(1500)).toBe(1500);
  });

  it('caps a longer delay at 2^31-1 ms instead of letting it become 1 ms', () => {
    expect(clampTimerMs(1e12)).toBe(MAX_TIMER_MS);
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
  });

  it('makes a delay under 1 ms 1 ms', () => {
    expect(clampTimerMs(0)).toBe(1);
  });
});

describe('seconds', () => {
  it.each([
    [200, '0.2 s'],
    [1100, '1.1 s'],
    [1_800_000, '1800 s'],
  ])('writes %d ms as %s', (ms, text) => {
    expect(seconds(ms)).toBe(text);
  });
});

describe('a limit that is not a positive number', () => {
  it('is no limit, not a 1 ms timer', async () => {
    suite.mock.setBehavior('/s', { delayMs: 30, content: 'fine' });
    const answer = await invokeJson(
      suite.http,
      openaiAdapter,
      openaiAdapter.chat,
      REQUEST,
      targetOf(suite.mock, 'openai'),
      { timeoutMs: Number.NaN, streamTimeoutMs: Number.NaN },
    );
    expect(answer.choices[0]?.message.content).toBe('fine');
  });
});
