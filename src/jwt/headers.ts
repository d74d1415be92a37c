import type { HeadersLike } from './types.js';

/** A header's value (the first, when repeated), from Node-style or fetch-style headers; names are case-insensitive. */
export function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  let value = Object.hasOwn(record, name) ? record[name] : undefined;
  if (value === undefined) {
    // a name absent in its lower-case form (Node's) is looked for in other cases: names of another
    // length are passed over without being lower-cased (an absent header, the common case, meets them all)
    const lower = name.toLowerCase();
    for (const key of Object.keys(record)) {
      if (key.length === lower.length && key.toLowerCase() === lower) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) return value[0];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The credential a request presents: `Authorization: Bearer <token>` (scheme case-insensitive), else
 * `x-api-key: <token>` (the Anthropic SDK and `/model_group/info` send it there).
 */
export function bearerToken(headers: HeadersLike): string | undefined {
  const authorization = headerValue(headers, 'authorization');
  if (authorization !== undefined) {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m) return m[1];
  }
  const apiKey = headerValue(headers, 'x-api-key')?.trim();
  return apiKey ? apiKey : undefined;
}
