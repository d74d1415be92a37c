import type { EventEmitter } from 'eventemitter3';
import { failedAttempt } from '../alerting/detect.js';
import type { CallbackKwargs, LoggerCallback } from '../callbacks/logger-callback.js';
import { maskKey } from '../callbacks/mask-key.js';
import type { RouterError } from '../errors/router-error.js';
import type { Endpoint, Usage } from '../types/index.js';
import { emitSafely } from './emit-safely.js';
import type { CallbackErrorEvent, RouterEvents } from './router-events.js';

function metadataOf(
  request: Readonly<Record<string, unknown>>,
  excluded: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  const metadata = (request.metadata as Record<string, unknown> | undefined) ?? {};
  return excluded?.size ? { ...metadata, _failover_excluded_ids: [...excluded] } : metadata;
}

/** One finished attempt, as the observer reports it (an `AttemptOutcome` is one). */
export interface AttemptRecord {
  /** The caller's request (router fields included), for callbacks. */
  readonly request: Readonly<Record<string, unknown>>;
  readonly endpoint: Endpoint;
  readonly stream: boolean;
  readonly startMs: number;
  readonly endMs: number;
  /** When the result (for streams: the first chunk) arrived; unset for an attempt that failed before one. */
  readonly firstMs?: number | undefined;
  /** The final usage (for streams: as the stream ended). */
  readonly usage?: Partial<Usage> | undefined;
  /** Deployments that failed this call so far (reported to callbacks as `metadata._failover_excluded_ids`). */
  readonly excluded?: ReadonlySet<string> | undefined;
  /** The call's failed attempts so far, oldest first. */
  readonly failures?: readonly RouterError[] | undefined;
  /** Upstream attempts of the call so far, this one included. */
  readonly attempts: number;
  /** The answer came from the response cache. @default false */
  readonly cacheHit?: boolean | undefined;
}

/**
 * Turns finished attempts into `success`/`failure` events and logger callbacks. Does nothing (no
 * allocation) when nobody listens; callbacks run after the result is settled and can never fail it.
 */
export class CallObserver {
  constructor(
    private readonly emitter: EventEmitter<RouterEvents>,
    private callbacks: readonly LoggerCallback[],
  ) {}

  setCallbacks(callbacks: readonly LoggerCallback[]): void {
    this.callbacks = callbacks;
  }

  succeeded(record: AttemptRecord, response: unknown, cost: number, attempts: number): void {
    const { endpoint, request } = record;
    emitSafely(
      this.emitter,
      'success',
      () => ({
        model: String(request.model),
        model_group: endpoint.deployment.modelName,
        model_id: endpoint.deployment.id,
        provider: endpoint.deployment.provider,
        latency_ms: record.endMs - record.startMs,
        response_cost: cost,
        attempts,
        stream: record.stream,
        usage: record.usage ?? null,
        cache_hit: record.cacheHit ?? false,
        time_to_first_token_ms:
          record.stream && record.firstMs !== undefined ? record.firstMs - record.startMs : null,
      }),
      (e) => this.#reportCallbackError('success', e),
    );
    if (this.callbacks.length > 0) this.#callback('logSuccessEvent', record, response, cost);
  }

  failed(record: AttemptRecord, error: RouterError): void {
    const { endpoint, request } = record;
    emitSafely(
      this.emitter,
      'failure',
      () => ({
        model: String(request.model),
        model_group: endpoint.deployment.modelName,
        model_id: endpoint.deployment.id,
        provider: endpoint.deployment.provider,
        latency_ms: record.endMs - record.startMs,
        error,
        stream: record.stream,
      }),
      (e) => this.#reportCallbackError('failure', e),
    );
    if (this.callbacks.length > 0) this.#callback('logFailureEvent', record, null, 0, error);
  }

  #callback(
    method: 'logSuccessEvent' | 'logFailureEvent',
    record: AttemptRecord,
    response: unknown,
    cost: number,
    error?: RouterError,
  ): void {
    const { endpoint, request } = record;
    // a failure before a result is in the call's failures already; a stream's failure after it is not
    const failures = record.failures ?? [];
    const failed = error && !failures.includes(error) ? [...failures, error] : failures;
    const kwargs: CallbackKwargs = {
      model: String(request.model),
      model_group: endpoint.deployment.modelName,
      model_id: endpoint.deployment.id,
      svc_params: {
        model: endpoint.deployment.params.model,
        api_key: maskKey(endpoint.target.apiKey),
        api_base: endpoint.target.apiBase ?? null,
        custom_llm_provider: endpoint.deployment.provider,
      },
      response_cost: cost,
      messages: request.messages,
      input: request.input ?? request.prompt,
      metadata: metadataOf(request, record.excluded),
      stream: record.stream,
      cache_hit: record.cacheHit ?? false,
      usage: record.usage ?? null,
      start_time: new Date(record.startMs),
      end_time: new Date(record.endMs),
      completion_start_time: record.firstMs === undefined ? null : new Date(record.firstMs),
      attempts: record.attempts,
      failed_attempts: failed.map(failedAttempt),
      ...(error ? { exception: error } : {}),
    };
    const start = kwargs.start_time;
    const end = kwargs.end_time;
    // after the caller has its result: a slow or broken callback never delays or fails a call
    setImmediate(() => {
      for (const callback of this.callbacks) {
        const fn = callback[method];
        if (!fn) continue;
        try {
          const result = fn.call(callback, kwargs, response, start, end);
          if (result instanceof Promise) result.catch((e: unknown) => this.#reportCallbackError(method, e));
        } catch (e) {
          this.#reportCallbackError(method, e);
        }
      }
    });
  }

  #reportCallbackError(source: CallbackErrorEvent['source'], error: unknown): void {
    // a listener of the error report itself that fails: nothing left to tell
    emitSafely(this.emitter, 'callback_error', () => ({ source, error }));
  }
}
