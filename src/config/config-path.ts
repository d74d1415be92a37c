/** A field's name as problems print it: `model_list[0].svc_params.rpm`, `retry_policy.TimeoutErrorRetries`. */
export function pathOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out;
}
