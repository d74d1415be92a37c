import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { request } from 'undici';

/** The paths a bench server answers to start and stop a CPU profile of its main thread. */
export const PROFILE_PATHS = { start: '/__profile/start', stop: '/__profile/stop' } as const;

/** What a profile samples: CPU time, or the bytes allocated (objects since collected counted). */
export type ProfileKind = 'cpu' | 'heap';

/**
 * A CPU profile of a bench server's main thread over a window the driver chooses (its load run, not
 * its start-up): `POST /__profile/start`, then `POST /__profile/stop?file=<path>` writes the
 * `.cpuprofile` (Chrome DevTools' format) and answers the calls served meanwhile. With
 * `/__profile/start?kind=heap`, V8's sampling heap profiler instead, counting what the collector has
 * since freed (a `.heapprofile`): the bytes a call allocates, which unlike its CPU time barely move
 * between runs.
 */
export class Profiler {
  #session: Session | undefined;

  /** Answers a profile request when `req` is one; true when it did. */
  answer(req: IncomingMessage, res: ServerResponse, requestsServed: () => number): boolean {
    const url = new URL(req.url ?? '/', 'http://bench');
    if (url.pathname === PROFILE_PATHS.start) {
      const kind: ProfileKind = url.searchParams.get('kind') === 'heap' ? 'heap' : 'cpu';
      void this.#start(requestsServed(), kind).then(() => res.writeHead(204).end());
      return true;
    }
    if (url.pathname === PROFILE_PATHS.stop) {
      void this.#stop(url.searchParams.get('file') ?? 'bench.cpuprofile').then(() =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ requests: requestsServed() - this.#startRequests })),
      );
      return true;
    }
    return false;
  }

  #startRequests = 0;
  #kind: ProfileKind = 'cpu';

  async #start(requests: number, kind: ProfileKind): Promise<void> {
    this.#session = new Session();
    this.#session.connect();
    this.#kind = kind;
    if (kind === 'heap') {
      // V8 takes these two flags, which @types/node does not list: without them only what is still
      // live when the profile stops counts
      await this.#session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      } as object);
    } else {
      await this.#session.post('Profiler.enable');
      await this.#session.post('Profiler.setSamplingInterval', { interval: 100 });
      await this.#session.post('Profiler.start');
    }
    this.#startRequests = requests;
  }

  async #stop(file: string): Promise<void> {
    const session = this.#session;
    if (!session) return;
    const { profile } =
      this.#kind === 'heap'
        ? await session.post('HeapProfiler.stopSampling')
        : await session.post('Profiler.stop');
    session.disconnect();
    this.#session = undefined;
    writeFileSync(file, JSON.stringify(profile));
  }
}

/** Starts the profile of the bench server whose side server is at `url`. */
export async function startProfile(url: string, kind: ProfileKind = 'cpu'): Promise<void> {
  await (await request(`${url}${PROFILE_PATHS.start}?kind=${kind}`, { method: 'POST' })).body.dump();
}

/** Stops it, writing `file`; resolves with the requests the server answered meanwhile. */
export async function stopProfile(url: string, file: string): Promise<number> {
  const res = await request(`${url}${PROFILE_PATHS.stop}?file=${encodeURIComponent(file)}`, {
    method: 'POST',
  });
  return ((await res.body.json()) as { requests: number }).requests;
}
