import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/** 1 KB of text per event. */
const EVENT = `data: ${JSON.stringify({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { content: 'x'.repeat(1000) }, finish_reason: null }],
})}\n\n`;

/** What a flooding upstream has done so far. */
export interface FloodSeen {
  /** Bytes written to the socket (accepted by `res.write`). */
  written: number;
  /** Whether a write found the socket's buffer full (the reader stopped taking bytes). */
  blocked: boolean;
  /** Whether the reader closed the connection. */
  closed: boolean;
}

/**
 * An OpenAI-format upstream that streams `totalBytes` of events as fast as its socket takes them,
 * waiting for `drain` when the buffer is full, and counts what it wrote: for tests that a reader who
 * stops reading stops the upstream (backpressure) instead of buffering its answer.
 */
export async function startFloodingUpstream(
  totalBytes: number,
): Promise<{ url: string; seen: FloodSeen; close(): void }> {
  const seen: FloodSeen = { written: 0, blocked: false, closed: false };
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('close', () => {
      seen.closed = true;
    });
    const pump = () => {
      while (seen.written < totalBytes && !res.destroyed) {
        seen.written += EVENT.length;
        if (!res.write(EVENT)) {
          seen.blocked = true;
          res.once('drain', pump);
          return;
        }
      }
      res.end('data: [DONE]\n\n');
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value once it stays the same for 200 ms (at most 10 s): what a flood holds once it stalls. */
export async function settled(value: () => number): Promise<number> {
  let last = value();
  for (let i = 0; i < 50; i++) {
    await sleep(200);
    if (value() === last) return last;
    last = value();
  }
  return last;
}

/** Waits (at most 5 s) until `condition` holds, and fails the test if it never does. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(10);
  expect(condition()).toBe(true);
}
