import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection that has sent no request yet is kept once a shutdown starts: time for a request
 * already on its way to arrive (it is then answered 503, `connection: close`).
 */
export const FRESH_CONNECTION_GRACE_MS = 1000;

/**
 * The answers a server has under way, so that a shutdown can close every keep-alive connection as soon
 * as it carries no answer: once `start()` is called, an answer whose headers are still to be sent says
 * `connection: close` (Node then closes the connection after it), a connection whose answer already
 * went out as keep-alive (a stream) is closed when that answer ends, and idle connections are closed at
 * once. Without it, a keep-alive client holds its connection, and so the shutdown, until it times out.
 * A connection that has sent no request yet (a client's pool opens one ahead of its next request) is
 * closed after `FRESH_CONNECTION_GRACE_MS`: Node counts it as busy, not idle, and would wait for it
 * until `drain_timeout`.
 */
export class ConnectionDrain {
  readonly #server: Server;
  readonly #answering = new Set<ServerResponse>();
  /** Answers under way per connection: more than one only when a client pipelines its requests. */
  readonly #perSocket = new Map<Socket, number>();
  /** Connections that have sent no request yet. */
  readonly #fresh = new Set<Socket>();
  #draining = false;

  constructor(server: Server) {
    this.#server = server;
    server.on('connection', this.#onConnection);
    server.on('request', this.#onRequest);
  }

  /** Closes idle connections now and every other one as soon as its answers are out. */
  start(): void {
    if (this.#draining) return;
    this.#draining = true;
    for (const res of this.#answering) lastOnConnection(res);
    this.#server.closeIdleConnections();
    for (const socket of this.#fresh) closeUnlessAsked(socket, this.#fresh);
  }

  #onConnection = (socket: Socket): void => {
    this.#fresh.add(socket);
    socket.once('close', () => this.#fresh.delete(socket));
    // accepted while the server stops listening (`close()` stops it a moment after `start()`)
    if (this.#draining) closeUnlessAsked(socket, this.#fresh);
  };

  #onRequest = (_req: IncomingMessage, res: ServerResponse): void => {
    const socket = res.socket;
    if (!socket) return;
    this.#fresh.delete(socket);
    this.#answering.add(res);
    this.#perSocket.set(socket, (this.#perSocket.get(socket) ?? 0) + 1);
    if (this.#draining) lastOnConnection(res);
    res.once('close', () => this.#answered(res, socket));
  };

  #answered(res: ServerResponse, socket: Socket): void {
    this.#answering.delete(res);
    const left = (this.#perSocket.get(socket) ?? 1) - 1;
    if (left > 0) {
      this.#perSocket.set(socket, left);
      return;
    }
    this.#perSocket.delete(socket);
    // after `close`, every byte of the answer is with the operating system: ending sends them first
    if (this.#draining && !socket.destroyed) socket.destroySoon();
  }
}

/** Closes `socket` after the grace unless it has sent a request by then (it is then out of `fresh`). */
function closeUnlessAsked(socket: Socket, fresh: ReadonlySet<Socket>): void {
  setTimeout(() => {
    if (fresh.has(socket)) socket.destroy();
  }, FRESH_CONNECTION_GRACE_MS).unref();
}

/** Makes an answer the last on its connection: `connection: close` when its headers are still to go. */
function lastOnConnection(res: ServerResponse): void {
  if (!res.headersSent) res.shouldKeepAlive = false;
}
