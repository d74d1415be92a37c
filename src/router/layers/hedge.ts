import { isRequestFault } from '../../errors/request-fault.js';
import type { Endpoint } from '../../types/index.js';
import type { Admits, Call, Handler, Layer, Routed, Step } from '../call.js';
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

/** One attempt of a race: its own step (endpoint, abort); the call and its history are shared. */
interface Runner {
  step: Step;
  controller: AbortController;
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
    async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const window = windowOf(step.group.name);
      const delayMs = options.after === 'p95' ? window.quantile(0.95) : options.after;
      const startMs = now();
      const routed =
        // a body that can be sent once cannot be raced
        delayMs === undefined || options.maxHedges < 1 || call.spent
          ? await next(call, step)
          : await race(next, call, step, delayMs, options.maxHedges, deps);
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
  step: Step,
  delayMs: number,
  maxHedges: number,
  deps: HedgeDeps,
): Promise<Routed<T>> {
  const { history } = call;
  const runners: Runner[] = [];
  // the deployments racing: each runner makes one attempt, and a hedge starts `delayMs` after the last
  // runner, whose attempt is by then the history's latest
  const busy = new Set<string>();
  return new Promise<Routed<T>>((resolve, reject) => {
    let done = false;
    let pending = 0;
    let hedges = 0;
    let timer: NodeJS.Timeout | undefined;
    let lastFailure: unknown;

    // the caller's abort reaches every runner through one listener (a caller's signal need not be an
    // AbortSignal for AbortSignal.any: see CallSignal); a stream's winner keeps it until its attempt
    // settles, since its upstream is read long after the race
    const callerAborted = (): void => {
      for (const r of runners) r.controller.abort(step.signal?.reason);
    };
    const unfollow = (): void => step.signal?.removeEventListener('abort', callerAborted);
    step.signal?.addEventListener('abort', callerAborted);

    const finish = (winner: Runner | undefined): void => {
      done = true;
      clearTimeout(timer);
      if (!winner || !call.stream) unfollow();
      for (const r of runners) if (r !== winner) r.controller.abort();
    };

    const launch = (hedge: boolean): void => {
      if (hedge && history.endpoint) busy.add(history.endpoint.deployment.id);
      const controller = new AbortController();
      if (step.signal?.aborted) controller.abort(step.signal.reason);
      const { signal } = controller;
      // a failure of any runner is in the shared history: every later pick prefers other deployments
      const runner: Runner = {
        controller,
        step: hedge
          ? { ...step, signal, hedge, backoff: undefined, admits: avoiding(step.admits, busy) }
          : { ...step, signal },
      };
      runners.push(runner);
      pending += 1;
      const failuresBefore = history.failures.length;
      next(call, runner.step).then(
        (routed) => {
          pending -= 1;
          if (done) return discard(routed, call);
          finish(runner);
          routed.attempts = history.attempts;
          if (call.stream) {
            const settle = routed.settle;
            routed.settle = (settlement) => {
              unfollow();
              settle(settlement);
            };
          }
          resolve(routed);
        },
        (err: unknown) => {
          pending -= 1;
          if (done) return;
          if (step.signal?.aborted || isRequestFault(err)) {
            finish(undefined);
            return reject(err);
          }
          // its own attempt failed (recorded in the history), rather than finding nothing to pick
          const attempted = history.failures.indexOf(err as never, failuresBefore) >= 0;
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
        deps.onHedge?.(step.group.name);
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
