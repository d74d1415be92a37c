import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal objects serialise equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A deployment's `model_id` when `model_info.id` is not given: the SHA-256 of its canonical
 * `svc_params` as written (before `os.environ/` resolution, so rotating a key keeps the id). Stable across
 * processes and key order.
 */
export function deploymentHash(svcParams: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(svcParams)).digest('hex');
}
