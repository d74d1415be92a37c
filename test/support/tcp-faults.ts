import { connect, createServer, type Server, type Socket } from 'node:net';

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

const closeServer = (server: Server, sockets: Set<Socket>): Promise<void> => {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
};

/** A TCP server that accepts connections and never answers: a Redis that hangs. */
export async function startBlackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

/** A port nothing listens on: connecting is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP forwarder to a real server that a test can silence and bring back: while paused, nothing is
 * forwarded either way (bytes wait, new connections are held), as when a network path black-holes.
 */
export interface TcpProxy {
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let paused = false;
  const sockets = new Set<Socket>();
  const waiting: Array<() => void> = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  // forwards `from` to `to`, holding the bytes back while paused
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!paused) to.write(chunk);
      else waiting.push(() => to.write(chunk));
    });
    from.on('close', () => to.destroy());
  };
  const server = createServer((client) => {
    track(client);
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  const port = await listen(server);
  return {
    port,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const write of waiting.splice(0)) write();
    },
    close: () => closeServer(server, sockets),
  };
}

/**
 * A TCP proxy that holds every piece of data `delayMs` before passing it on, each way: a Redis one
 * round trip of `2 × delayMs` away, so round trips can be counted by time.
 */
export async function startDelayProxy(
  targetPort: number,
  delayMs: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => setTimeout(() => upstream.write(d), delayMs));
    upstream.on('data', (d) => setTimeout(() => client.write(d), delayMs));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}
