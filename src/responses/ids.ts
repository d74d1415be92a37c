import { randomBytes } from 'node:crypto';

/** A new id with the API's prefix for its kind: `resp_`, `msg_`, `fc_` or `rs_`, then 48 hex digits. */
export function newResponsesId(prefix: 'resp' | 'msg' | 'fc' | 'rs'): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
