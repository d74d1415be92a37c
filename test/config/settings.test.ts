import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/config/parse-settings.js';
import { ConfigError } from '../../src/errors/config-error.js';

const problemsOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('router settings', () => {
  it('names an unknown setting and the closest valid one', () => {
    expect(problemsOf(() => parseSettings({ num_retry: 3 } as never))).toBe(
      'Invalid router settings: unknown setting `num_retry`; did you mean `num_retries`?',
    );
  });

  it('suggests within nested objects', () => {
    const message = problemsOf(() => parseSettings({ retry_policy: { RateLimitErrorRetry: 2 } } as never));
    expect(message).toContain(
      'unknown setting `RateLimitErrorRetry` in `retry_policy`; did you mean `RateLimitErrorRetries`?',
    );
  });

  it('names a field with the wrong type and what was given', () => {
    expect(problemsOf(() => parseSettings({ num_retries: '3' } as never))).toContain(
      'num_retries: expected number',
    );
  });

  it('suggests the closest strategy name', () => {
    expect(problemsOf(() => parseSettings({ routing_strategy: 'simple_shuffle' } as never))).toContain(
      'did you mean `simple-shuffle`?',
    );
  });

  it('fills the documented defaults', () => {
    const settings = parseSettings({});
    expect(settings).toMatchObject({
      routing_strategy: 'simple-shuffle',
      num_retries: 2,
      allowed_fails: 3,
      cooldown_time: 5,
      max_fallbacks: 5,
      timeout: 600,
      async_only_mode: false,
    });
  });

  it('resolves os.environ/NAME references', () => {
    const settings = parseSettings(
      { redis_password: 'os.environ/TEST_REDIS_PW' },
      { TEST_REDIS_PW: 'hunter2' },
    );
    expect(settings.redis_password).toBe('hunter2');
  });

  it('names an unset environment variable without printing any value', () => {
    const message = problemsOf(() => parseSettings({ redis_password: 'os.environ/UNSET_PW' }, {}));
    expect(message).toBe('Invalid router settings: redis_password: environment variable UNSET_PW is not set');
  });

  it('accepts the enable_pre_call_check spelling', () => {
    expect(parseSettings({ enable_pre_call_check: true }).enable_pre_call_checks).toBe(true);
  });

  it('lists every problem at once', () => {
    const message = problemsOf(() => parseSettings({ num_retry: 1, timeout: -1 } as never));
    expect(message).toContain('num_retry');
    expect(message).toContain('timeout');
  });
});
