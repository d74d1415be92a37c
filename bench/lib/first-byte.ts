import { Pool } from 'undici';
import { median } from './stats.js';

/** One POST a bench sends, and the pieces its answer must hold to count as right. */
export interface Probe {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  expect: readonly string[];
}

/**
 * Sends `count` requests one at a time over one connection and times each one's first body bytes (for
 * a stream: its first chunk), reading every answer to its end and checking it: with no queueing, the
 * difference between two targets is the time the slower one adds per call.
 */
export async function firstBytes(probe: Probe, count: number): Promise<{ medianMs: number; wrong: number }> {
  const pool = new Pool(probe.url, { connections: 1 });
  const times: number[] = [];
  let wrong = 0;
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const res = await pool.request({
        path: probe.path,
        method: 'POST',
        headers: probe.headers,
        body: probe.body,
      });
      let first = Number.NaN;
      let text = '';
      for await (const part of res.body) {
        if (Number.isNaN(first)) first = performance.now() - t0;
        text += String(part);
      }
      if (res.statusCode !== 200 || !probe.expect.every((piece) => text.includes(piece))) wrong++;
      times.push(first);
    }
  } finally {
    await pool.close();
  }
  return { medianMs: median(times), wrong };
}
