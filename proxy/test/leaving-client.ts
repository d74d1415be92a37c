import { connect } from 'node:net';

/** What a client that left saw of its call. */
export interface LeftCall {
  /** The `x-svc-call-id` of the answer. */
  callId: string;
  /** Every byte it received (headers and chunked body), as text. */
  received: string;
}

/**
 * A client on a raw socket: sends a POST, reads the answer until `until` appears in it, then destroys
 * the socket (as a client does that stops reading after the part it wants).
 */
export function postThenLeave(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  until: string,
): Promise<LeftCall> {
  const { hostname, port } = new URL(baseUrl);
  const payload = JSON.stringify(body);
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(payload)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`),
    );
    socket.setEncoding('utf8');
    let received = '';
    let left = false;
    socket.on('data', (data: string) => {
      received += data;
      if (left || !received.includes(until)) return;
      left = true;
      socket.destroy();
      const callId = /x-svc-call-id: *([^\r\n]+)/i.exec(received)?.[1];
      if (callId) resolve({ callId, received });
      else reject(new Error(`no x-svc-call-id in: ${received.slice(0, 500)}`));
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!left) reject(new Error(`the answer ended before \`${until}\`: ${received.slice(0, 2000)}`));
    });
  });
}

/**
 * A client on a raw socket that sends a request (`body` as JSON, if any) and leaves as soon as it is
 * written, reading nothing: gone before the proxy has looked its key up.
 */
export function sendThenLeave(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    ...(payload ? ['content-type: application/json', `content-length: ${Buffer.byteLength(payload)}`] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`, () => {
        socket.destroy();
        resolve();
      }),
    );
    socket.on('error', reject);
  });
}

/**
 * POSTs `body` as JSON to `url`, then leaves (aborts the request) once `held` resolves: once the
 * upstream holds the request, before any answer.
 */
export async function postThenAbort(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  held: () => Promise<unknown>,
): Promise<void> {
  const controller = new AbortController();
  const pending = fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).catch(() => undefined);
  await held();
  controller.abort();
  await pending;
}
