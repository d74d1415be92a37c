import type { CallWarning, ProviderRuntime } from '../../providers/shared/provider-adapter.js';
import type { DeadlineQueue } from '../../shared/deadline-queue.js';
import type { Endpoint } from '../../types/index.js';
import type { Call, Handler, Routed, Step } from '../call.js';

export interface ExecuteDeps {
  now(): number;
  /** `max_response_bytes`. */
  maxResponseBytes: number | undefined;
  /** The adapters' per-router state (auth caches, fetched secrets). */
  providers: ProviderRuntime;
  deadlines: DeadlineQueue;
  /** Told of what a call skipped without failing (a malformed stream event). */
  onWarning(warning: CallWarning): void;
}

/** Settles nothing: the attempt layer above puts its own `settle` on the result. */
const unsettled = (): void => undefined;

/**
 * An attempt's result, made by `new`: a stream's outlives young-generation collections, and V8 would
 * pretenure an object literal's (src/providers/shared/chunk-objects.ts says why that costs).
 */
class Served<T> implements Routed<T> {
  // declared, not class fields: the constructor defines each once, in this order
  declare result: T;
  declare endpoint: Endpoint;
  declare attempts: number;
  declare startMs: number;
  declare firstMs: number;
  declare settle: Routed<T>['settle'];

  constructor(result: T, endpoint: Endpoint, attempts: number, startMs: number, firstMs: number) {
    this.result = result;
    this.endpoint = endpoint;
    this.attempts = attempts;
    this.startMs = startMs;
    this.firstMs = firstMs;
    this.settle = unsettled;
  }
}

/**
 * The innermost step of the call path: runs the call's operation on the endpoint the select layer
 * chose, with that endpoint's limits (the request's `timeout` over them) and the attempt's signal. Knows
 * nothing of outcomes: the attempt layer above reports them.
 */
export function executeLayer(deps: ExecuteDeps): Handler {
  const { now } = deps;
  return <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    const endpoint = step.endpoint!;
    const { timeoutMs } = call;
    const startMs = now();
    const attempts = call.history.attempts;
    return call
      .operation(
        endpoint,
        call.body,
        {
          timeoutMs: timeoutMs ?? endpoint.timeoutMs,
          streamTimeoutMs: timeoutMs ?? endpoint.streamTimeoutMs,
          firstTokenTimeoutMs: endpoint.firstTokenTimeoutMs,
          streamTotalTimeoutMs: endpoint.streamTotalTimeoutMs,
          maxResponseBytes: deps.maxResponseBytes,
          signal: step.signal,
          dropParams: call.dropParams,
          runtime: deps.providers,
          onWarning: deps.onWarning,
          deadlines: deps.deadlines,
          // set by the executor for a stream (`{ ...options, onBodyClose, onUnread }`): named here so
          // that the copy keeps this object's shape instead of growing two properties (slow path)
          onBodyClose: undefined,
          onUnread: undefined,
        },
        call.mockResponse ?? endpoint.deployment.params.mock_response,
      )
      .then((result) => new Served(result, endpoint, attempts, startMs, now()));
  };
}
