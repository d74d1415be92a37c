import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the sink answers: 200, another status, or never (the request hangs until `release()`). */
export type SinkMode = { status: number } | 'hang';

/** A local chat-webhook stand-in: records every POSTed body, answers as told. */
export interface WebhookSink {
  /** The URL to give as `webhook_url` (with a path, as chat webhooks have). */
  url: string;
  /** Bodies received, parsed, in order (including those answered with an error). */
  bodies: Array<{ text: string }>;
  /** Every alert line received, in order. */
  lines(): string[];
  setMode(mode: SinkMode): void;
  /** Answers every hanging request with 200. */
  release(): void;
  /** Resolves once `count` bodies arrived (rejects after `timeoutMs`). */
  waitForBodies(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookSink(): Promise<WebhookSink> {
  const bodies: Array<{ text: string }> = [];
  const hanging: ServerResponse[] = [];
  let mode: SinkMode = { status: 200 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string });
      if (mode === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(mode.status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/hook-token-XYZ`,
    bodies,
    lines: () => bodies.flatMap((b) => b.text.split('\n')),
    setMode(next) {
      mode = next;
    },
    release() {
      for (const res of hanging.splice(0)) res.writeHead(200).end('{}');
    },
    async waitForBodies(count, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (bodies.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook bodies, got ${bodies.length}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async close() {
      for (const res of hanging.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
