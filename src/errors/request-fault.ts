import { pathOf } from '../config/config-path.js';
import { BadRequestError } from './classes.js';
import { RouterError } from './router-error.js';

const FAULT = Symbol.for('@svc/router.requestFault');

/**
 * A request the router cannot even send (a cycle, a BigInt, nesting too deep, a `toJSON` or a getter
 * that throws): the request's own fault. It fails the call at once with a BadRequestError, is never
 * retried, never falls back, and never counts against a deployment. `what` names the field
 * (`request.messages[0].content`, see `unserialisablePath`); `problem` says what is wrong with it.
 */
export function requestFault(
  what: string,
  cause: unknown,
  problem = 'cannot be serialised as JSON',
): BadRequestError {
  // V8's own words for these two are a stack overflow and a multi-line trace of the cycle
  const reason =
    cause instanceof RangeError && /call stack/i.test(cause.message)
      ? 'it is nested too deeply'
      : cause instanceof TypeError && cause.message.startsWith('Converting circular structure')
        ? 'it contains a cycle'
        : cause instanceof Error
          ? cause.message
          : String(cause);
  const error = new BadRequestError(`Invalid request: ${what} ${problem}: ${reason}`, {
    cause,
  });
  Object.defineProperty(error, FAULT, { value: true });
  return error;
}

/** Whether an error is the request's own fault in the sense of `requestFault`. */
export function isRequestFault(error: unknown): boolean {
  return RouterError.isInstance(error) && FAULT in error;
}

function serialises(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

function keysOf(node: unknown): PropertyKey[] | undefined {
  try {
    if (node === null || typeof node !== 'object') return undefined;
    // a value with its own toJSON is judged whole: its toJSON is what failed
    if (typeof (node as { toJSON?: unknown }).toJSON === 'function') return undefined;
    return Array.isArray(node) ? Array.from(node.keys()) : Object.keys(node);
  } catch {
    return undefined; // a Proxy that will not say what it holds is itself the fault
  }
}

/**
 * Where in `root` the value that JSON cannot serialise (or that throws when read) is, as a field name
 * under `prefix`: `request.metadata.self`, `request.messages[0].content`. It descends into the first
 * child that fails on its own, stops at a cycle and after `maxDepth` levels (a value nested 100,000
 * deep is named by its first levels). Only runs once serialising has failed, so its repeated
 * `JSON.stringify` costs the common call nothing.
 */
export function unserialisablePath(root: unknown, prefix: string, maxDepth = 8): string {
  const path: PropertyKey[] = [];
  const seen = new Set<unknown>([root]);
  let node = root;
  descend: for (let depth = 0; depth < maxDepth; depth++) {
    const keys = keysOf(node);
    if (!keys) break;
    for (const key of keys) {
      let value: unknown;
      try {
        value = (node as Record<PropertyKey, unknown>)[key];
      } catch {
        path.push(key);
        break descend;
      }
      if (serialises(value)) continue;
      path.push(key);
      if (seen.has(value)) break descend; // the cycle closes here
      seen.add(value);
      node = value;
      continue descend;
    }
    break;
  }
  return pathOf(prefix, path);
}
