import { ROUTER_ONLY_FIELDS } from '../types/router-only-fields.js';

/**
 * The request without router-only fields: what an adapter may translate and send. Returns the request
 * itself when it has none (adapters never mutate it), so the common call makes no copy.
 */
export function providerBody<T extends object>(request: T): T {
  let clean = true;
  for (const key in request) {
    if (ROUTER_ONLY_FIELDS.has(key)) {
      clean = false;
      break;
    }
  }
  if (clean) return request;
  const body: Record<string, unknown> = {};
  for (const key in request) {
    if (!ROUTER_ONLY_FIELDS.has(key)) body[key] = request[key];
  }
  return body as T;
}
