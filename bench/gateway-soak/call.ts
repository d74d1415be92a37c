// One call of the gateway soak, judged by what reached the client.
import type { Pool } from 'undici';
import { CHAT_BODIES, CHAT_PATH } from '../lib/gateway-load.js';

/** A plain or a streamed chat completion. */
export type CallKind = 'plain' | 'stream';

/** `served`, or what the client got instead, e.g. `plain 500`, `stream error frame`, `stream ECONNRESET`. */
export type CallEnding = 'served' | `${CallKind} ${string}`;

const BODY: Record<CallKind, string> = { plain: CHAT_BODIES.plain, stream: CHAT_BODIES.streaming };
// a served answer: the whole completion, or a stream through its end frame (a stream failing after its
// first byte ends with an in-band error event instead, proxy/docs/proxy.md)
const WHOLE: Record<CallKind, string> = { plain: '"content":"Hello!"', stream: 'data: [DONE]' };

/** Sends one call through `pool` (the gateway) with the virtual key, reads its whole answer, judges it. */
export async function gatewayCall(pool: Pool, key: string, kind: CallKind): Promise<CallEnding> {
  try {
    const res = await pool.request({
      path: CHAT_PATH,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: BODY[kind],
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) return `${kind} ${res.statusCode}`;
    if (text.includes(WHOLE[kind])) return 'served';
    if (kind === 'stream' && text.includes('"error"')) return 'stream error frame';
    return `${kind} 200, not whole`;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return `${kind} ${typeof code === 'string' ? code : (error as Error).name}`;
  }
}
