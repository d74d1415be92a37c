import { asRecord } from './json.js';
import type { ProviderTarget } from './provider-adapter.js';
import { streamedNonJson } from './provider-errors.js';

/**
 * Parses the payload of one stream event. Text that is not JSON means the stream is broken, so it
 * throws; valid JSON that is not an object (`null`, an array, a number) comes back as undefined, for
 * the caller to skip or refuse.
 *
 * @param what names the event in the error message (`an event`, `a frame`, ...).
 * @throws InternalServerError (`provider/model streamed <what> that is not JSON`) when `text` is not JSON.
 * @example parseStreamJson('{"type":"ping"}', target, 'an event') // => { type: 'ping' }
 */
export function parseStreamJson(
  text: string,
  target: ProviderTarget,
  what: string,
): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw streamedNonJson(target, what, error);
  }
  return asRecord(value);
}
