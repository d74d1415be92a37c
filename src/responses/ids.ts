import { randomBytes } from 'node:crypto';

/**
 * A new id with the API's prefix for its kind: `resp_`, `msg_`, `fc_` or `rs_`, then 48 hex digits:
 * the Unix time in milliseconds (12 digits), then 144 random bits. An id made in a later millisecond
 * sorts later, so a store keyed by them (the gateway's stored responses) adds each at the end of its
 * index rather than on a random page of it.
 */
export function newResponsesId(prefix: 'resp' | 'msg' | 'fc' | 'rs'): string {
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${randomBytes(18).toString('hex')}`;
}
