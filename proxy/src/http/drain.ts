import type { FastifyInstance } from 'fastify';
import type { OpenCalls } from '../spend/open-calls.js';
import type { ConnectionDrain } from './connection-drain.js';

/** How long calls cut at `drain_timeout` get to record their spend rows (they fail as the client left). */
const CUT_CALLS_GRACE_MS = 1000;

/** The least time the spend flush gets after a drain, however long the drain took. */
const SPEND_FLUSH_MIN_MS = 2000;

/**
 * Stops accepting and waits, at most `timeoutMs`, for the calls in flight: each connection closes as
 * soon as its answer is out (idle ones at once), and each call's spend row is queued. Resolves as soon
 * as the last call ended, without waiting for idle clients. Past `timeoutMs` the connections left are
 * cut (`cut` aborted first, so their streams stop reading on), and the calls they carried get a moment
 * to record their rows.
 */
export async function drainCalls(
  app: FastifyInstance,
  connections: ConnectionDrain,
  calls: OpenCalls,
  timeoutMs: number,
  cut: AbortController,
): Promise<void> {
  connections.start();
  // the rows last: a call admitted just before the close still records its own
  const ended = app.close().then(() => calls.settled());
  if (await within(ended, timeoutMs)) return;
  // streams whose clients are cut must not read on for their usage: their rows are needed now
  cut.abort();
  app.server.closeAllConnections();
  await within(calls.settled(), CUT_CALLS_GRACE_MS);
}

/**
 * Milliseconds the spend flush may take after a drain that started at `startedAt`: what is left of
 * `drain_timeout`, and never less than `SPEND_FLUSH_MIN_MS`, so that rows are written whatever the
 * drain took while the whole shutdown stays within an orchestrator's grace period.
 */
export function flushDeadlineMs(startedAt: number, drainTimeoutMs: number, now: number): number {
  return Math.max(SPEND_FLUSH_MIN_MS, startedAt + drainTimeoutMs - now);
}

/** Whether `promise` settled (either way) within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const settled = promise.then(
      () => true,
      () => true,
    );
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
