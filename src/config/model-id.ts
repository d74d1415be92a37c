import { createHash } from 'node:crypto';

// Validated config is a tree of bounded depth, but svc_params may hold a user's object (a class
// instance) that is neither: a cycle or depth past this serialises as a marker instead of overflowing.
const MAX_DEPTH = 64;

/** JSON with object keys sorted at every depth, so equal objects serialise equally. */
export function canonicalJson(value: unknown, ancestors: Set<object> = new Set()): string {
  if (value && typeof value === 'object') {
    if (ancestors.has(value) || ancestors.size >= MAX_DEPTH) return '"[cycle or too deep]"';
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, ancestors)).join(',')}]`;
      const entries = Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, ancestors)}`).join(',')}}`;
    } finally {
      ancestors.delete(value);
    }
  }
  if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
  return JSON.stringify(value) ?? 'null';
}

/**
 * A deployment's `model_id` when `model_info.id` is not given: the SHA-256 of its canonical
 * `svc_params` as written (before `os.environ/` resolution, so rotating a key keeps the id). Stable across
 * processes and key order.
 */
export function deploymentHash(svcParams: object): string {
  return createHash('sha256').update(canonicalJson(svcParams)).digest('hex');
}
