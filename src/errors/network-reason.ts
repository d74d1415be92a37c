/**
 * What a failure without an HTTP answer says to whoever called the router. Node's and undici's messages
 * name the upstream's address (`connect ECONNREFUSED 10.0.0.5:443`, `getaddrinfo ENOTFOUND
 * llm.internal`); a caller of a gateway must not learn where its deployments live, so the reason is
 * told in plain words by the error's code, and any other message is shown with its addresses removed.
 * The original error stays on the RouterError's `cause` for the operator.
 */

import { redactAddresses } from './redact.js';

/** Plain words for the codes callers meet most. */
const PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  UND_ERR_SOCKET: 'the upstream closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
  ERR_TLS_CERT_ALTNAME_INVALID: "the upstream's TLS certificate does not name its host",
};

/** Host names, addresses and ports a Node or undici error carries as fields, from every error of the chain. */
function addressesOf(err: unknown): string[] {
  const found: string[] = [];
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const fields = e as { address?: unknown; hostname?: unknown; host?: unknown; cause?: unknown };
    for (const value of [fields.address, fields.hostname, fields.host])
      if (typeof value === 'string' && value.length > 0) found.push(value);
    e = fields.cause;
  }
  return found;
}

/**
 * The reason a network failure gives, without the upstream's address: plain words and the code for a
 * known code (`connection refused (ECONNREFUSED)`), else the message (with its code) with every address
 * it holds removed.
 */
export function networkReason(err: unknown, code: string | undefined): string {
  const phrase = code !== undefined && Object.hasOwn(PHRASES, code) ? PHRASES[code] : undefined;
  if (phrase) return `${phrase} (${code})`;
  const raw = err instanceof Error ? err.message : String(err);
  const text = code && !raw.includes(code) ? `${raw} (${code})` : raw;
  return redactAddresses(text, addressesOf(err));
}
