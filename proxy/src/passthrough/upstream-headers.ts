import type { IncomingHttpHeaders } from 'node:http';

// hop-by-hop headers (RFC 9110 7.6.1), those the proxy sets itself, and method overrides (a call is
// priced by its method: a DELETE, free, must not run as the POST an override names)
const HOP = new Set([
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);
// the caller's credentials for the proxy: never sent on
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie']);

/**
 * The headers sent upstream: the caller's, less hop-by-hop ones and its credentials, with `configured`
 * over them; `accept-encoding: identity` so the answer's usage can be read as it passes.
 */
export function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  configured: Readonly<Record<string, string>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP.has(name) || CREDENTIALS.has(name) || name.startsWith('x-svc-')) continue;
    out[name] = value;
  }
  out['accept-encoding'] = 'identity';
  for (const [name, value] of Object.entries(configured)) out[name.toLowerCase()] = value;
  return out;
}

/** The answer's headers sent back to the caller, less hop-by-hop ones. */
export function answerHeaders(
  incoming: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || (HOP.has(name) && name !== 'content-length')) continue;
    out[name] = value;
  }
  return out;
}

/** The query string without a `key` parameter (a Gemini caller's key for the proxy). */
export function withoutKeyParam(search: string): string {
  if (!search.includes('key=')) return search;
  const params = new URLSearchParams(search);
  params.delete('key');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
