import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request a receiver got: its path, headers and raw body. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server standing in for a collector or a webhook. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Every body received, as one string (to search for secrets). */
  bytes(): string;
  close(): Promise<void>;
}

/** How a receiver answers the n-th request (0-based): a status, or `hang` (never answer). */
export type Answer = (n: number, request: Received) => number | 'hang';

function listen(server: Server, sockets: Set<Socket>): Promise<string> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** Starts a receiver that records every request and answers as `answer` says (200 by default). */
export async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const status = answer(received.length, request);
      received.push(request);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = await listen(server, sockets);
  return {
    url,
    received,
    bytes: () => received.map((r) => r.body).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A destination that accepts connections and never answers a request. */
export function startHangingReceiver(): Promise<Receiver> {
  return startReceiver(() => 'hang');
}

/** Waits until `check` passes, polling every 10 ms, at most `ms`. */
export async function until(check: () => void, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
