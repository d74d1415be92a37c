import { expect } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';

/** The ConfigError `fn` throws (failing the test when it throws anything else, or nothing). */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}
