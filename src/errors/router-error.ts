import type { ProviderName } from '../types/provider.js';

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
  /** Errors of earlier attempts of the same request (retries, tiers, fallbacks), oldest first. */
  attempts: RouterError[] = [];
  /** The OpenAI-style error `type` used in JSON error bodies. */
  readonly type: string = 'api_error';

  protected static readonly defaultStatus: number = 500;
  protected static readonly defaultRetryable: boolean = false;

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
