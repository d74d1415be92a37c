import type { RouterError } from '../errors/router-error.js';
import type { Endpoint } from './endpoint.js';

/** One call as it moves through groups, tiers, retries and fallbacks. */
export interface CallContext<T> {
  /** The model the caller asked for. */
  readonly model: string;
  /** The caller's request as given (router fields included). */
  readonly request: Readonly<Record<string, unknown>>;
  readonly stream: boolean;
  readonly signal: AbortSignal | undefined;
  /** Called through an `a*` method: weighted failover applies only there (spec 10.4). */
  readonly asyncEntry: boolean;
  /** The request's own `num_retries`, overriding the router's. */
  readonly numRetries: number | undefined;
  /** The request's own `timeout` in ms, bounding waits for a free slot. */
  readonly timeoutMs: number | undefined;
  /** Runs one attempt on one endpoint. */
  attempt(endpoint: Endpoint): Promise<T>;
  /** Upstream attempts made so far. */
  attempts: number;
  /** Every failed attempt's error, oldest first. */
  readonly failures: RouterError[];
  /** Deployments that failed this call (`metadata._failover_excluded_ids`). */
  excluded: Set<string> | undefined;
}

/** The result of a routed call and the endpoint that produced it. */
export interface Routed<T> {
  result: T;
  endpoint: Endpoint;
  /** Upstream attempts made, 1 when the first one served. */
  attempts: number;
  /** When the serving attempt started (ms). */
  startMs: number;
  /**
   * For streams: tells the router how the stream ended (frees its concurrency slot; a failure counts
   * toward cooldown). Non-streaming results are settled already; this is a no-op for them.
   */
  settle(error?: RouterError): void;
}
