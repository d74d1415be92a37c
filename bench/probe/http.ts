// The probe's client: every answer it gets (status line, headers and body) is kept, so that the secrets
// check can search all of them at the end.
import { connect } from 'node:net';
import { MASTER_KEY } from '../../proxy/test/harness.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  json: any;
  ms: number;
}

/** Every answer text seen, for the secrets search. */
export const seen: string[] = [];
/** Every virtual key made, for the secrets search. */
export const virtualKeys: string[] = [];

export const admin = { authorization: `Bearer ${MASTER_KEY}` };
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** One request; `body` is sent as JSON unless it is a string (sent as is). */
export async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = admin,
  body?: unknown,
): Promise<Answer> {
  const start = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // the one answer that shows a key is its creation's: kept out of the search, the key searched for
  const created = path === '/key/generate' && res.status === 200 ? (json as { key: string }).key : undefined;
  if (created) virtualKeys.push(created);
  const shown = created ? text.replaceAll(created, '<the new key>') : text;
  seen.push(`${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${shown}`);
  return { status: res.status, headers: res.headers, text, json, ms: performance.now() - start };
}

/** A chat call on `model`. */
export const chat = (base: string, headers: Record<string, string>, model: string, extra = {}) =>
  call(base, 'POST', '/v1/chat/completions', headers, {
    model,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });

/**
 * A request written on a raw socket, path and all exactly as given (fetch would normalise `..` and
 * `//`); resolves with the whole answer text once the server closes the connection.
 */
export function rawRequest(base: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${body}`));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      received += d;
    });
    // a server may answer and close before it has read all of a large body: what it answered counts
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      seen.push(received);
      resolve(received);
    });
  });
}

/** A new virtual key with these options. */
export async function newKey(base: string, options: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/key/generate', admin, options);
  if (res.status !== 200) throw new Error(`/key/generate: ${res.status} ${res.text}`);
  return {
    key: res.json.key as string,
    hash: res.json.key_hash as string,
    headers: bearer(res.json.key),
  };
}

/** The spend rows of a key (its hash), read through the API with the master key. */
export async function spendRows(base: string, keyHash: string): Promise<Array<Record<string, unknown>>> {
  const res = await call(base, 'GET', `/spend/logs?key=${keyHash}&limit=1000`);
  if (res.status !== 200) throw new Error(`/spend/logs: ${res.status} ${res.text}`);
  return res.json as Array<Record<string, unknown>>;
}

/** The spend rows of a key once `count` are there (or after `ms`, what there is). */
export async function rowsOnce(base: string, keyHash: string, count: number, ms = 8000) {
  const until = Date.now() + ms;
  for (;;) {
    const rows = await spendRows(base, keyHash);
    if (rows.length >= count || Date.now() > until) {
      // a moment more: a row beyond the expected ones would show now
      if (rows.length >= count) await new Promise((r) => setTimeout(r, 300));
      return rows.length >= count ? spendRows(base, keyHash) : rows;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many times any of the secrets (in any of their forms) occurs in the texts. */
export function secretsIn(texts: readonly string[], secrets: readonly string[]): number {
  let found = 0;
  for (const text of texts) for (const secret of secrets) if (text.includes(secret)) found++;
  return found;
}
