import type { RouterError } from '../errors/router-error.js';
import type { ChatCompletionChunk, HiddenParams, Usage } from '../types/index.js';
import type { OpenedStream } from './executor.js';

/** What the router does when a stream it returned finishes. */
export interface StreamHooks {
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
  /** Routing facts; `response_cost` is filled in when the stream ends with usage. */
  declare readonly _hidden_params: HiddenParams;
  #opened: OpenedStream | undefined;

  constructor(
    opened: OpenedStream,
    private readonly hooks: StreamHooks,
  ) {
    this.#opened = opened;
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

  async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk> {
    const opened = this.#opened;
    if (!opened) throw new Error('this stream has already been iterated; a stream can be read once');
    this.#opened = undefined;
    let usage: Usage | undefined;
    let finished = false;
    try {
      for (let next = opened.first; !next.done; next = await opened.rest.next()) {
        if (next.value.usage) usage = next.value.usage;
        yield next.value;
      }
      finished = true;
      this.hooks.onEnd(usage);
    } catch (error) {
      this.hooks.onError(error as RouterError);
      throw error;
    } finally {
      if (!finished) await opened.rest.return?.();
      this.hooks.onClose?.();
    }
  }
}
