import { isRequestFault } from '../../errors/request-fault.js';
import type { Endpoint } from '../../types/index.js';
import type { Admits, Call, Handler, Layer, Routed } from '../call.js';
import type { OpenedStream } from '../executor.js';
import { LatencyWindow, type LatencyWindows } from '../latency-window.js';

export interface HedgeOptions {
  /** Milliseconds without an answer before a hedge starts, or `p95` of the group's observed latency. */
  after: number | 'p95';
  /** Most hedges per attempt (each `after` later than the one before). */
  maxHedges: number;
}

export interface HedgeDeps {
  now(): number;
  /** Observed latencies per group (for `p95`), kept by the runtime. */
  latencies: LatencyWindows;
  /** Told of each hedge started (for metrics). */
  onHedge?(group: string): void;
}

/** One attempt of a race: a copy of the call with its own cursor and its own abort. */
interface Runner<T> {
  call: Call<T>;
  controller: AbortController;
  /** `call.attempts` when it started. */
  base: number;
}

/**
 * Request hedging (`hedge_after`): an attempt that has not answered after `after` ms (or the group's
 * p95 latency) is raced by a second one on another healthy deployment, chosen by the same select and
 * attempt path (so it takes a slot and counts against limits like any attempt), at most `maxHedges`
 * of them. The first answer wins (for streams: the first chunk); the others are aborted, and an abort
 * of a loser never counts against its deployment. A failure that comes before any hedge started goes
 * to the retry layer as usual; once a race is on, the call fails only when every attempt of it has.
 * When no other deployment can take a hedge now (none healthy, or all full), the call just waits.
 * Sits between the retry and select layers; composed only when `hedge_after` is set.
 */
export function hedgeLayer(options: HedgeOptions, deps: HedgeDeps): Layer {
  const { now, latencies } = deps;
  const windowOf = (group: string): LatencyWindow => {
    let window = latencies.get(group);
    if (!window) {
      window = new LatencyWindow();
      latencies.set(group, window);
    }
    return window;
  };
  return (next: Handler) =>
    async <T>(call: Call<T>): Promise<Routed<T>> => {
      const window = windowOf(call.group.name);
      const delayMs = options.after === 'p95' ? window.quantile(0.95) : options.after;
      const startMs = now();
      const routed =
        // a body that can be sent once cannot be raced
        delayMs === undefined || options.maxHedges < 1 || call.spent
          ? await next(call)
          : await race(next, call, delayMs, options.maxHedges, deps);
      window.add(routed.firstMs - startMs);
      return routed;
    };
}

/** Strictly keeps a hedge off the deployments already racing (unlike `excluded`, a mere preference). */
function avoiding(admits: Admits | undefined, busy: ReadonlySet<string>): Admits {
  return (endpoint: Endpoint) => !busy.has(endpoint.deployment.id) && (admits ? admits(endpoint) : true);
}

function race<T>(
  next: Handler,
  call: Call<T>,
  delayMs: number,
  maxHedges: number,
  deps: HedgeDeps,
): Promise<Routed<T>> {
  const { now } = deps;
  // shared by every runner: a failure on any of them is a failure of this call
  call.excluded ??= new Set();
  call.timedOut ??= new Set();
  const runners: Runner<T>[] = [];
  return new Promise<Routed<T>>((resolve, reject) => {
    let done = false;
    let pending = 0;
    let hedges = 0;
    let timer: NodeJS.Timeout | undefined;
    let lastFailure: unknown;

    const finish = (winner: Runner<T> | undefined): void => {
      done = true;
      clearTimeout(timer);
      for (const r of runners) if (r !== winner) r.controller.abort();
      call.attempts += runners.reduce((sum, r) => sum + r.call.attempts - r.base, 0);
      if (call.excluded?.size === 0) call.excluded = undefined;
      if (call.timedOut?.size === 0) call.timedOut = undefined;
      if (winner) {
        call.endpoint = winner.call.endpoint;
        call.strategy = winner.call.strategy;
      }
    };

    const launch = (hedge: boolean): void => {
      const controller = new AbortController();
      const signal = call.signal ? AbortSignal.any([call.signal, controller.signal]) : controller.signal;
      const busy = new Set<string>();
      for (const r of runners) if (r.call.endpoint) busy.add(r.call.endpoint.deployment.id);
      const copy: Call<T> = {
        ...call,
        signal,
        hedge,
        endpoint: undefined,
        backoff: hedge ? undefined : call.backoff,
        admits: hedge ? avoiding(call.admits, busy) : call.admits,
        // a hedge never waits for a slot or a backoff: it runs now or not at all
        deadline: hedge ? now() : call.deadline,
      };
      if (!hedge) call.backoff = undefined;
      const runner: Runner<T> = { call: copy, controller, base: copy.attempts };
      runners.push(runner);
      pending += 1;
      next(copy).then(
        (routed) => {
          pending -= 1;
          if (done) return discard(routed, copy);
          finish(runner);
          routed.attempts = call.attempts;
          resolve(routed);
        },
        (err: unknown) => {
          pending -= 1;
          if (done) return;
          const attempted = copy.attempts > runner.base;
          if (call.signal?.aborted || isRequestFault(err)) {
            finish(undefined);
            return reject(err);
          }
          if (attempted || !hedge) lastFailure = err;
          // a hedge that found no deployment free: no further hedge will either
          if (hedge && !attempted) clearTimeout(timer);
          if (pending > 0) return;
          finish(undefined);
          reject(lastFailure);
        },
      );
    };

    const arm = (): void => {
      timer = setTimeout(() => {
        if (done) return;
        hedges += 1;
        if (hedges < maxHedges) arm();
        deps.onHedge?.(call.group.name);
        launch(true);
      }, delayMs);
    };
    arm();
    launch(false);
  });
}

/** A loser that answered anyway: its stream is closed and its attempt settled as aborted. */
function discard<T>(routed: Routed<T>, call: Call<T>): void {
  if (call.stream) void (routed.result as OpenedStream).rest.return?.();
  routed.settle({ aborted: true });
}
