import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a test server answers one path. */
export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A started route server: its base URL, and `close` (its connections too). */
export interface RouteServer {
  server: Server;
  base: string;
  close(): void;
}

/** A local server answering each path with its route (unknown paths hang). */
export async function startRouteServer(routes: Readonly<Record<string, Route>>): Promise<RouteServer> {
  const server = createServer((req, res) => {
    req.resume();
    routes[req.url ?? '']?.(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
