import type { ProviderName } from '../types/provider.js';
import type { RouterErrorCode } from './codes.js';

const MARK = Symbol.for('@svc/router.error');

/** Options every router error accepts (CONTRACT 5.2). */
export interface RouterErrorOptions {
  provider?: ProviderName | string;
  model?: string;
  modelId?: string;
  /** Overrides the class's canonical status. */
  status?: number;
  /** What the provider should be left alone for, when it said (`retry-after`, `retry-after-ms`). */
  retryAfterMs?: number;
  /** The status the provider answered with, when it differs from `status`. */
  upstreamStatus?: number;
  /** Whether routing may try this call again; defaults to the class's own answer. */
  retryable?: boolean;
  /** A finer stable code than the class's own (`insufficient_quota` for a RateLimitError). */
  code?: RouterErrorCode;
  /**
   * The provider's error body, already redacted and bounded (`errorFromResponse` does both); stored as
   * given.
   */
  upstreamBody?: string;
  cause?: unknown;
}

/**
 * Base of every error the router throws. `retryable` is decided once, where the error is made; the
 * router's final error keeps every attempt's error in `attempts`.
 */
export class RouterError extends Error {
  /** The class's canonical HTTP status unless the constructor was given one. */
  readonly status: number;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly modelId: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly upstreamStatus: number | undefined;
  /** What went wrong, stable across providers and versions (`rate_limit`, `context_window_exceeded`, ...). */
  readonly code: RouterErrorCode;
  /**
   * The provider's error body as text, secrets removed, at most 2 KiB (longer bodies end with a
   * `[truncated ...]` note); undefined when there was none (a network failure, an error the router
   * decided itself). Not enumerable: it stays out of `JSON.stringify(error)`, `util.inspect` and log
   * lines that spread the error, so an error (and every error in `attempts`) is not several KiB of
   * provider text wherever it is printed. Read it when you need it.
   */
  declare readonly upstreamBody: string | undefined;
  /** Errors of earlier attempts of the same request (retries, tiers, fallbacks), oldest first. */
  attempts: RouterError[] = [];
  /** The OpenAI-style error `type` used in JSON error bodies. */
  readonly type: string = 'api_error';

  protected static readonly defaultStatus: number = 500;
  protected static readonly defaultRetryable: boolean = false;
  protected static readonly defaultCode: RouterErrorCode = 'api_error';

  constructor(message: string, options: RouterErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const ctor = new.target as typeof RouterError;
    this.name = ctor.name;
    this.status = options.status ?? ctor.defaultStatus;
    this.provider = options.provider;
    this.model = options.model;
    this.modelId = options.modelId;
    this.retryable = options.retryable ?? ctor.defaultRetryable;
    this.retryAfterMs = options.retryAfterMs;
    this.upstreamStatus = options.upstreamStatus;
    this.code = options.code ?? ctor.defaultCode;
    Object.defineProperty(this, 'upstreamBody', { value: options.upstreamBody, enumerable: false });
    Object.defineProperty(this, MARK, { value: true });
  }

  /**
   * `instanceof` that also holds across two copies of this package in one process.
   * @example if (RateLimitError.isInstance(err)) wait(err.retryAfterMs);
   */
  static isInstance<T extends typeof RouterError>(this: T, value: unknown): value is InstanceType<T> {
    if (value instanceof this) return true;
    if (typeof value !== 'object' || value === null || !(MARK in value)) return false;
    for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
      if (proto.constructor?.name === this.name) return true;
    }
    return false;
  }
}
