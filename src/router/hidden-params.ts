import type { HiddenParams, WithHiddenParams } from '../types/index.js';

/** Attaches `_hidden_params` as a non-enumerable property, so `JSON.stringify` leaves it out. */
export function withHiddenParams<T extends object>(result: T, params: HiddenParams): WithHiddenParams<T> {
  Object.defineProperty(result, '_hidden_params', {
    value: params,
    enumerable: false,
    writable: true,
    configurable: true,
  });
  return result as WithHiddenParams<T>;
}
