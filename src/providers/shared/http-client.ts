import { type Dispatcher, Pool } from 'undici';
import {
  type AbortSource,
  type BufferedResponse,
  BufferingHandler,
  type BufferLimits,
} from './buffered-response.js';
import { type StreamedResponse, StreamingHandler } from './streamed-response.js';

/** One HTTP request as a provider adapter builds it. */
export interface WireRequest {
  url: string;
  method?: 'POST' | 'GET';
  headers: Record<string, string>;
  /** An async iterable is streamed as it yields (an upload), and can be sent once. */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
}

export interface SendOptions {
  /** Longest wait for the response headers. */
  headersTimeoutMs: number;
  /** Longest gap between two pieces of the body (for streams: `stream_timeout`). */
  bodyTimeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Splits an absolute URL into origin and path without the cost of `new URL()` on every call. */
export function splitUrl(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? { origin: url, path: '/' } : { origin: url.slice(0, slash), path: url.slice(slash) };
}

/** What undici is asked for one request, streamed or buffered alike. */
function dispatchOptions(
  path: string,
  request: WireRequest,
  options: Pick<SendOptions, 'headersTimeoutMs' | 'bodyTimeoutMs'>,
): Dispatcher.DispatchOptions {
  return {
    path,
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body as Dispatcher.DispatchOptions['body'],
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  };
}

/** Options of an `HttpClient`. */
export interface HttpClientOptions {
  /**
   * The most connections each origin's pool opens (`max_connections_per_origin`); further requests
   * queue for a free one. @default 256
   */
  connections?: number | undefined;
}

/** The default `max_connections_per_origin`. */
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 256;

/**
 * All outbound HTTP: one undici keep-alive Pool per origin, created on first use and released by
 * `close()`. Each pool opens at most `connections` sockets, each carrying one request at a time, so
 * a burst of calls to one provider queues in the pool instead of opening a socket per call.
 */
export class HttpClient {
  readonly #connections: number;
  readonly #pools = new Map<string, Pool>();
  // URLs repeat (one per deployment and operation): split each once
  readonly #routes = new Map<string, { pool: Pool; path: string }>();
  #closed = false;

  /** @throws RangeError when `connections` is not a positive integer. */
  constructor(options: HttpClientOptions = {}) {
    const connections = options.connections ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
    if (!Number.isInteger(connections) || connections < 1) {
      throw new RangeError(
        `max_connections_per_origin must be a positive integer; got ${String(options.connections)}`,
      );
    }
    this.#connections = connections;
  }

  /** The pool for an origin (created on first use). */
  pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      if (this.#closed) throw new Error('HttpClient is closed');
      pool = new Pool(origin, {
        connections: this.#connections,
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 600_000,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** The pool and path of a URL. */
  #route(url: string): { pool: Pool; path: string } {
    let route = this.#routes.get(url);
    if (!route) {
      const { origin, path } = splitUrl(url);
      route = { pool: this.pool(origin), path };
      if (this.#routes.size < 10_000) this.#routes.set(url, route);
    }
    return route;
  }

  /** Sends the request; resolves once the headers arrive, with the body as a stream. */
  send(request: WireRequest, options: SendOptions): Promise<Dispatcher.ResponseData> {
    const { pool, path } = this.#route(request.url);
    const dispatch = dispatchOptions(path, request, options) as Dispatcher.RequestOptions;
    dispatch.signal = options.signal;
    return pool.request(dispatch);
  }

  /**
   * Sends the request and reads the whole response into memory (see `BufferLimits`): what a JSON call
   * needs, without a body stream. Rejects with the network failure, the signal's reason, or
   * `BodyTooLargeError`.
   */
  sendBuffered(
    request: WireRequest,
    options: Omit<SendOptions, 'signal'> & BufferLimits & { signal?: AbortSignal | AbortSource | undefined },
  ): Promise<BufferedResponse> {
    const { pool, path } = this.#route(request.url);
    return new Promise((resolve, reject) => {
      const handler = new BufferingHandler(resolve, reject, options, options.signal);
      pool.dispatch(dispatchOptions(path, request, options), handler);
    });
  }

  /**
   * Sends the request; resolves once the headers arrive with the body as a `ByteStream` (no Node
   * stream), or, for an error status, with at most `maxErrorBodyBytes` of its body. Rejects with the
   * network failure or the signal's reason.
   */
  sendStreaming(
    request: WireRequest,
    options: Omit<SendOptions, 'signal'> & {
      maxErrorBodyBytes: number;
      signal?: AbortSignal | AbortSource | undefined;
    },
  ): Promise<StreamedResponse> {
    const { pool, path } = this.#route(request.url);
    return new Promise((resolve, reject) => {
      const handler = new StreamingHandler(resolve, reject, options.maxErrorBodyBytes, options.signal);
      pool.dispatch(dispatchOptions(path, request, options), handler);
    });
  }

  /** Closes every pool; in-flight requests finish first. */
  async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    this.#routes.clear();
    await Promise.all(pools.map((p) => p.close()));
  }
}
