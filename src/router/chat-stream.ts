import type { RouterError } from '../errors/router-error.js';
import { DONE } from '../shared/iteration.js';
import type { ChatCompletionChunk, HiddenParams, Usage } from '../types/index.js';
import type { OpenedStream } from './executor.js';

/** A chunk iterator that can hand over a chunk already at hand synchronously (the stream reader). */
type SyncReadable = AsyncIterator<ChatCompletionChunk> & {
  nextReady?(): IteratorResult<ChatCompletionChunk> | undefined;
};

/**
 * A chat stream's iterator: `next()` as any async iterator's, and `nextReady()`, which hands over a
 * chunk already at hand without a promise.
 */
export interface ChatCompletionStreamIterator extends AsyncIterator<ChatCompletionChunk> {
  /**
   * The next chunk (or the end) when it is already at hand, parsed from bytes already read; undefined
   * when it is not, and before the first chunk: then await `next()`. A server forwarding a stream can
   * drain what one read of the upstream brought in one synchronous loop, without a turn of promise
   * jobs per chunk. A stream's failure is not thrown here: the next `next()` rejects with it. Not to
   * be called while a `next()` is pending. Absent on streams that cannot tell (a resumed stream's).
   *
   * @example
   * const chunks = stream[Symbol.asyncIterator]();
   * for (;;) {
   *   const step = chunks.nextReady?.() ?? (await chunks.next());
   *   if (step.done) break;
   *   send(step.value);
   * }
   */
  nextReady?(): IteratorResult<ChatCompletionChunk> | undefined;
}

/** What the router does when a stream it returned finishes. */
export interface StreamHooks {
  /** The caller asked for the first chunk. */
  onStart?(): void;
  onEnd(usage: Usage | undefined): void;
  onError(error: RouterError): void;
  /** Always, last: after the end, an error, or the caller stopping early. */
  onClose?(): void;
  /** The dollar cost of `usage` on the serving deployment. */
  costOf(usage: Partial<Usage>): number;
}

/**
 * The result of a streaming call: an async iterable of `chat.completion.chunk` objects, iterable once.
 * A failure after the first chunk is thrown from the iterator as a contract error (never retried:
 * the caller has already seen text). Stopping early (`break`) releases the connection.
 */
export class ChatCompletionStream implements AsyncIterable<ChatCompletionChunk> {
  #opened: OpenedStream | undefined;
  readonly #hidden: HiddenParams;

  /** Made by the router, which gives it the opened stream, its hooks and its routing facts. */
  constructor(
    opened: OpenedStream,
    private readonly hooks: StreamHooks,
    hidden: HiddenParams,
  ) {
    this.#opened = opened;
    this.#hidden = hidden;
  }

  /**
   * Routing facts; `response_cost` is filled in when the stream ends with usage. An accessor, not an
   * own property: `JSON.stringify` and spreads leave it out, as they leave out a completion's, without
   * a property defined on each stream.
   */
  get _hidden_params(): HiddenParams {
    return this.#hidden;
  }

  /** Whether the caller has started reading it. */
  get started(): boolean {
    return this.#opened === undefined;
  }

  /**
   * The dollar cost of `usage` on the deployment that serves this stream (0 for a cache hit or a
   * deployment without prices): what prices a stream that ended without the upstream's usage (cut, or
   * left by its reader) from counted tokens (`countedUsage`). A whole stream's cost is
   * `_hidden_params.response_cost`.
   */
  costOf(usage: Partial<Usage>): number {
    return this.hooks.costOf(usage);
  }

  /**
   * The chunks. A plain iterator rather than an async generator: each chunk costs one promise, not a
   * generator's several turns. Not for concurrent `next()` calls (`for await` never makes them).
   */
  [Symbol.asyncIterator](): ChatCompletionStreamIterator {
    const hooks = this.hooks;
    // the rest of the stream once its first chunk is handed over (the opened stream, and so the
    // first chunk, is not held for the whole stream)
    let rest: SyncReadable | undefined;
    let state: 'new' | 'reading' | 'over' = 'new';
    let usage: Usage | undefined;
    // a failure met by nextReady(), for the next next() to reject with
    let failed: { error: unknown } | undefined;
    const take = (next: IteratorResult<ChatCompletionChunk>): IteratorResult<ChatCompletionChunk> => {
      if (!next.done) {
        if (next.value.usage) usage = next.value.usage;
        return next;
      }
      state = 'over';
      try {
        hooks.onEnd(usage);
      } finally {
        hooks.onClose?.();
      }
      return DONE;
    };
    const release = async (): Promise<void> => {
      try {
        await rest?.return?.();
      } finally {
        hooks.onClose?.();
      }
    };
    const fail = async (error: unknown): Promise<never> => {
      state = 'over';
      hooks.onError(error as RouterError);
      await release();
      throw error;
    };
    const iterator: ChatCompletionStreamIterator = {
      nextReady: () => {
        if (state !== 'reading' || failed) return undefined;
        let ready: IteratorResult<ChatCompletionChunk> | undefined;
        try {
          ready = rest!.nextReady?.();
        } catch (error) {
          failed = { error };
          return undefined;
        }
        return ready && take(ready);
      },
      next: () => {
        if (failed) {
          const { error } = failed;
          failed = undefined;
          return fail(error);
        }
        if (state === 'over') return Promise.resolve(DONE);
        if (state === 'new') {
          const opened = this.#opened;
          if (!opened)
            return Promise.reject(
              new Error('this stream has already been iterated; a stream can be read once'),
            );
          this.#opened = undefined;
          rest = opened.rest as SyncReadable;
          state = 'reading';
          hooks.onStart?.();
          try {
            return Promise.resolve(take(opened.first));
          } catch (error) {
            return Promise.reject(error);
          }
        }
        let ready: IteratorResult<ChatCompletionChunk> | undefined;
        let pending: Promise<IteratorResult<ChatCompletionChunk>> | undefined;
        try {
          // a chunk already at hand is taken without a promise of its own
          ready = rest!.nextReady?.();
          if (!ready) pending = rest!.next();
        } catch (error) {
          return fail(error);
        }
        if (pending) return pending.then(take, fail);
        try {
          return Promise.resolve(take(ready!));
        } catch (error) {
          return Promise.reject(error);
        }
      },
      return: async (value?: unknown) => {
        // a caller that stops early releases the connection
        if (state === 'reading') {
          state = 'over';
          await release();
        } else state = 'over';
        return { done: true, value };
      },
    };
    return iterator;
  }
}
