import type { DeliveryStats } from '../../records/record-queue.js';
import type { Deployment } from '../../types/index.js';
import type { AttemptOutcome } from '../outcomes.js';
import { errorType, statusClass } from './gen-ai.js';

/** What `router.metrics()` tells of one deployment since the router started. Counts never go down. */
export interface DeploymentMetrics {
  model_group: string;
  model_id: string;
  provider: string;
  /** Attempts that ended, by status class (`2xx`, `4xx`, `5xx`); aborted attempts are not counted. */
  requests: Record<string, number>;
  /** Failed attempts by error class (`RateLimitError`, `TimeoutError`, ...). */
  errors: Record<string, number>;
  /** Attempts the caller aborted (or a hedge race cancelled): they say nothing about the deployment. */
  aborted: number;
  /** Attempts after the first of their call (retries, next tiers and fallbacks alike). */
  retries: number;
  /** Calls answered from the response cache with an answer this deployment gave. */
  cache_hits: number;
  /** Times this deployment was cooled down. */
  cooldowns: number;
  input_tokens: number;
  output_tokens: number;
  /** `response_cost` summed over its successful calls. */
  spend: number;
  /** Successful attempts, and their durations summed (for streams: until the stream ended). */
  latency_count: number;
  latency_ms_sum: number;
  /** Successful streams, and their times to the first chunk summed. */
  ttft_count: number;
  ttft_ms_sum: number;
  /** Attempts on it right now. */
  in_flight: number;
}

/** A snapshot of the router's counters: build your own exporter from it (the proxy's `/metrics` does). */
export interface RouterMetricsSnapshot {
  /** Every deployment configured or called, one entry each. */
  deployments: DeploymentMetrics[];
  /** Moves of calls from one model group to a fallback group. */
  fallbacks: Array<{ from: string; to: string; count: number }>;
  /** Hedged attempts started, per model group (`hedge_after`). */
  hedges: Array<{ model_group: string; count: number }>;
  /** Failed operations on the shared store (Redis). */
  store_errors: number;
  /**
   * Each `callbacks` destination's delivery counts, in order: records delivered, dropped (queue full)
   * and failed (given up after retries), retries, and records pending.
   */
  call_records: DeliveryStats[];
}

/**
 * Deployments past this many get one shared `_other` entry: pass-through models are named by callers,
 * and a label set must stay bounded.
 */
export const MAX_DEPLOYMENT_SERIES = 1000;

class Counters {
  readonly requests: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  aborted = 0;
  retries = 0;
  cacheHits = 0;
  cooldowns = 0;
  inputTokens = 0;
  outputTokens = 0;
  spend = 0;
  latencyCount = 0;
  latencyMsSum = 0;
  ttftCount = 0;
  ttftMsSum = 0;

  constructor(
    readonly group: string,
    readonly id: string,
    readonly provider: string,
  ) {}
}

function bump(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1;
}

/**
 * The router's running counts, fed by the outcome channel and a few hooks: plain numbers, a map
 * lookup and a few additions per attempt, nothing else on the call path.
 */
export class RouterMetrics {
  readonly #byId = new Map<string, Counters>();
  readonly #fallbacks = new Map<string, { from: string; to: string; count: number }>();
  readonly #hedges = new Map<string, number>();
  #storeErrors = 0;

  #counters(id: string, group: string, provider: string): Counters {
    let counters = this.#byId.get(id);
    if (counters) return counters;
    if (this.#byId.size >= MAX_DEPLOYMENT_SERIES) return this.#counters('_other', '_other', '_other');
    counters = new Counters(group, id, provider);
    this.#byId.set(id, counters);
    return counters;
  }

  /** One finished attempt (or cache hit). */
  record(o: AttemptOutcome): void {
    const { deployment } = o.endpoint;
    const c = this.#counters(deployment.id, deployment.modelName, deployment.provider);
    if (o.kind === 'cache_hit') {
      c.cacheHits += 1;
      return;
    }
    if (o.kind === 'aborted') {
      c.aborted += 1;
      return;
    }
    if (o.attempts > 1) c.retries += 1;
    if (o.kind === 'failure') {
      bump(c.requests, statusClass(o.error?.status ?? 500));
      bump(c.errors, errorType(o.error));
      return;
    }
    bump(c.requests, '2xx');
    c.inputTokens += o.usage?.prompt_tokens ?? 0;
    c.outputTokens += o.usage?.completion_tokens ?? 0;
    c.spend += o.cost ?? 0;
    c.latencyCount += 1;
    c.latencyMsSum += o.endMs - o.startMs;
    if (o.stream && o.firstMs !== undefined) {
      c.ttftCount += 1;
      c.ttftMsSum += o.firstMs - o.startMs;
    }
  }

  cooldown(id: string, group: string): void {
    this.#counters(id, group, this.#byId.get(id)?.provider ?? 'unknown').cooldowns += 1;
  }

  fallback(from: string, to: string): void {
    const key = `${from}\u0000${to}`;
    const entry = this.#fallbacks.get(key);
    if (entry) entry.count += 1;
    else this.#fallbacks.set(key, { from, to, count: 1 });
  }

  hedge(group: string): void {
    this.#hedges.set(group, (this.#hedges.get(group) ?? 0) + 1);
  }

  storeError(): void {
    this.#storeErrors += 1;
  }

  /** The counts as plain data, with a zero entry for every configured deployment not called yet. */
  snapshot(
    configured: readonly Deployment[],
    inFlight: (id: string) => number,
  ): Omit<RouterMetricsSnapshot, 'call_records'> {
    for (const d of configured) this.#counters(d.id, d.modelName, d.provider);
    const deployments = [...this.#byId.values()].map(
      (c): DeploymentMetrics => ({
        model_group: c.group,
        model_id: c.id,
        provider: c.provider,
        requests: { ...c.requests },
        errors: { ...c.errors },
        aborted: c.aborted,
        retries: c.retries,
        cache_hits: c.cacheHits,
        cooldowns: c.cooldowns,
        input_tokens: c.inputTokens,
        output_tokens: c.outputTokens,
        spend: c.spend,
        latency_count: c.latencyCount,
        latency_ms_sum: c.latencyMsSum,
        ttft_count: c.ttftCount,
        ttft_ms_sum: c.ttftMsSum,
        in_flight: c.id === '_other' ? 0 : inFlight(c.id),
      }),
    );
    return {
      deployments,
      fallbacks: [...this.#fallbacks.values()].map((f) => ({ ...f })),
      hedges: [...this.#hedges].map(([model_group, count]) => ({ model_group, count })),
      store_errors: this.#storeErrors,
    };
  }
}
