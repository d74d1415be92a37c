import { PerList } from './per-list.js';
import { LowestPicker } from './pick-lowest.js';
import { SlidingAverage } from './sliding-average.js';
import type { CallOutcome, RoutingStrategy, StrategyArgs, StrategyDeps } from './strategy.js';

/** `routing_strategy_args.ttl` when unset: the window latencies are averaged over, in seconds. */
export const DEFAULT_LATENCY_TTL_SECONDS = 60;
/** What a failed attempt counts as (or its own duration, if longer): slower than any healthy call. */
export const FAILED_CALL_LATENCY_MS = 60_000;
/** Windows left empty are forgotten every this many outcomes (deployments that are gone). */
const SWEEP_EVERY = 1024;

/** `routing_strategy_args` of `latency-based-routing`. */
export interface LatencyArgs {
  /** Seconds latencies are averaged over. @default 60 */
  ttl?: number;
  /** Deployments whose average is within this fraction of the fastest share traffic. @default 0 */
  lowest_latency_buffer?: number;
}

/** The args of the strategy table, read as latency args (they were validated with the settings). */
export function latencyArgsOf(args: StrategyArgs): LatencyArgs {
  const { ttl, lowest_latency_buffer: buffer } = args;
  return {
    ...(typeof ttl === 'number' && { ttl }),
    ...(typeof buffer === 'number' && { lowest_latency_buffer: buffer }),
  };
}

/**
 * `latency-based-routing`: the deployment with the lowest average latency over the last `ttl` seconds;
 * every deployment within `lowest_latency_buffer` of the fastest (0.5: up to 1.5 times its average)
 * shares the traffic at random. A deployment with no sample in the window is tried first, one call at a
 * time, so a new or long-unused deployment is measured before it is ranked (and a slow one is retried
 * once its samples age out). For streams the sample is the time to the first chunk. A failed attempt
 * counts as a call of at least 60 seconds, so a failing deployment drops to the back.
 *
 * Latencies are this process's own measurements, kept in memory (constant per deployment): selection
 * reads no store.
 * @example new Router(list, { routing_strategy: 'latency-based-routing', routing_strategy_args: { ttl: 30, lowest_latency_buffer: 0.2 } })
 */
export function latencyBasedRouting(
  deps: Pick<StrategyDeps, 'random' | 'now' | 'inFlight'>,
  args: LatencyArgs = {},
): RoutingStrategy {
  const windowMs = (args.ttl ?? DEFAULT_LATENCY_TTL_SECONDS) * 1000;
  const buffer = args.lowest_latency_buffer ?? 0;
  const { random, now, inFlight } = deps;
  const windows = new Map<string, SlidingAverage>();
  const windowOf = (id: string): SlidingAverage => {
    let window = windows.get(id);
    if (!window) {
      window = new SlidingAverage(windowMs);
      windows.set(id, window);
    }
    return window;
  };
  // each candidate list's windows, read by index on every pick
  const listed = new PerList((d) => windowOf(d.id));
  const lowest = new LowestPicker(random);
  let outcomes = 0;

  return {
    name: 'latency-based-routing',
    select(candidates) {
      const bucket = SlidingAverage.bucketOf(now(), windowMs);
      const own = listed.of(candidates);
      // unmeasured and idle: -1, ahead of every average; unmeasured with its trial in flight: skipped
      const chosen = lowest.pick(
        candidates,
        (d, i) => {
          const average = own[i]!.averageIn(bucket);
          if (!Number.isNaN(average)) return average;
          return inFlight(d.id) === 0 ? -1 : Number.NaN;
        },
        buffer,
      );
      // every candidate is unmeasured with a trial in flight (a burst at start): any of them
      return chosen ?? candidates[Math.floor(random() * candidates.length)];
    },
    onOutcome(outcome: CallOutcome) {
      const at = now();
      const measured =
        outcome.stream && outcome.timeToFirstTokenMs !== undefined
          ? outcome.timeToFirstTokenMs
          : outcome.latencyMs;
      const sample = outcome.ok ? measured : Math.max(outcome.latencyMs, FAILED_CALL_LATENCY_MS);
      windowOf(outcome.deployment.id).add(at, sample);
      if (++outcomes % SWEEP_EVERY === 0) {
        let swept = false;
        for (const [id, w] of windows) {
          if (w.empty(at)) swept = windows.delete(id);
        }
        if (swept) listed.clear(); // lists must not keep windows that are no longer the ids'
      }
    },
  };
}
