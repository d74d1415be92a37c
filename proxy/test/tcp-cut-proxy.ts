import net from 'node:net';

/**
 * A TCP proxy in front of a real server that a test can cut: every open connection dropped, and new
 * ones refused until `restore()`. Also drops a connection at a chosen point of a conversation.
 */
export interface CutProxy {
  readonly port: number;
  /** Connections accepted and forwarded so far. */
  readonly connections: number;
  /** Drops every connection at once and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  /**
   * The next time a client sends bytes containing `marker`, they reach the server, but the server's
   * answer does not reach the client: that connection is dropped (an ambiguous failure: the server
   * did the work, the client never learns it). Resolves when it happened.
   */
  dropAnswerTo(marker: string): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  dropAnswer?: () => void;
}

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  const pairs = new Set<Pair>();
  let refusing = false;
  let connections = 0;
  let pending: { marker: Buffer; done: () => void } | undefined;

  const end = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream.destroy();
    pairs.delete(pair);
  };

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    connections++;
    const pair: Pair = { client, upstream: net.connect(target.port, target.host) };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (pending && chunk.includes(pending.marker)) {
        pair.dropAnswer = pending.done;
        pending = undefined;
      }
      pair.upstream.write(chunk);
    });
    pair.upstream.on('data', (chunk: Buffer) => {
      if (pair.dropAnswer) {
        const done = pair.dropAnswer;
        end(pair);
        done();
        return;
      }
      client.write(chunk);
    });
    for (const socket of [client, pair.upstream]) {
      socket.on('error', () => end(pair));
      socket.on('close', () => end(pair));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    port,
    get connections() {
      return connections;
    },
    cut() {
      refusing = true;
      for (const pair of [...pairs]) end(pair);
    },
    restore() {
      refusing = false;
    },
    dropAnswerTo(marker) {
      return new Promise((resolve) => {
        pending = { marker: Buffer.from(marker), done: resolve };
      });
    },
    async close() {
      refusing = true;
      for (const pair of [...pairs]) end(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
