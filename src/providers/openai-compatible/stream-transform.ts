import { errorFromResponse } from '../../errors/map-error.js';
import { clearArray } from '../../shared/clear-array.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import { errorContextOf } from '../shared/error-context.js';
import type { ChunkTransform, ProviderTarget, StreamMonitor } from '../shared/provider-adapter.js';
import { streamEndedEarly } from '../shared/provider-errors.js';
import type { SseEvent } from '../shared/sse.js';
import { parseStreamJson } from '../shared/stream-json.js';
import { transformChunks } from '../shared/transform-chunks.js';
import { inBandError } from './error-map.js';
import type { ResponseHooks } from './options.js';
import { ChunkNormalizer, isEmptyChunk } from './stream-normalize.js';

/**
 * OpenAI-compatible SSE events into `chat.completion.chunk`s, one event at a time and synchronously
 * (parsed once, normalised in place). The first chunk carries `delta.role: 'assistant'` (and only it);
 * chunks that say nothing after it are skipped. An `error` object in the stream is thrown as its
 * contract class. The stream is complete at `data: [DONE]`, or when the body ends cleanly after every
 * choice it showed got a `finish_reason` (many servers never send `[DONE]`); one that ends before is
 * an APIConnectionError, never a silent success. Events that are not JSON are skipped and reported to
 * `monitor`.
 */
export class OpenAIChunkTransform implements ChunkTransform<ChatCompletionChunk> {
  readonly #normalizer: ChunkNormalizer;
  readonly #transform: ((chunk: ChatCompletionChunk) => ChatCompletionChunk | undefined) | undefined;
  #started = false;
  #done = false;
  // choices seen (highest index + 1) and those finished: all finished is a complete answer
  #choices = 0;
  #finished: Set<number> | undefined;
  /** One event's chunks, before the transform hook and the role rule (reused event after event). */
  readonly #normalized: ChatCompletionChunk[] = [];

  constructor(
    private readonly target: ProviderTarget,
    hooks: ResponseHooks = {},
    private readonly monitor?: StreamMonitor,
  ) {
    this.#normalizer = new ChunkNormalizer(target, hooks);
    this.#transform = hooks.chunkTransform?.(target);
  }

  event(event: SseEvent, out: ChatCompletionChunk[]): void {
    if (this.#done) return; // drain so the connection goes back to the pool
    if (event.data === '[DONE]') {
      this.#done = true;
      return;
    }
    const json = parseStreamJson(event.data, this.target, 'an event', this.monitor);
    if (!json) return;
    const error = inBandError(json);
    if (error) throw errorFromResponse(error, errorContextOf(this.target));
    const normalized = this.#normalized;
    clearArray(normalized); // what a throwing chunk hook left behind
    this.#normalizer.normalize(json, normalized);
    for (let n = 0; n < normalized.length; n++) this.#emit(normalized[n]!, out);
    clearArray(normalized); // held no longer than the event
  }

  /** Counts the chunk's choices and finishes, then hands it through the chunk hook and the role rule to `out`. */
  // indexed loops, not for-of: this runs on every chunk, and an array iterator is an object made each time
  #emit(normalized: ChatCompletionChunk, out: ChatCompletionChunk[]): void {
    const choices = normalized.choices;
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i]!;
      if (choice.index >= this.#choices) this.#choices = choice.index + 1;
      if (choice.finish_reason === null) continue;
      this.#finished ??= new Set();
      this.#finished.add(choice.index);
    }
    const chunk = this.#transform ? this.#transform(normalized) : normalized;
    if (!chunk || (this.#started && isEmptyChunk(chunk))) return;
    const first = chunk.choices[0];
    if (!this.#started && first) first.delta = { role: 'assistant', ...first.delta };
    else {
      // (`delete` only where there is a role: even a delete of nothing takes V8's slow path)
      for (let i = 0; i < chunk.choices.length; i++) {
        const delta = chunk.choices[i]!.delta;
        if (delta.role !== undefined) delete delta.role;
      }
    }
    this.#started ||= first !== undefined;
    out.push(chunk);
  }

  end(): void {
    if (!this.#done && (this.#finished === undefined || this.#finished.size < this.#choices))
      throw streamEndedEarly(this.target, 'no finish_reason');
  }
}

/** `OpenAIChunkTransform` over a whole body, for a caller that holds the bytes as an async iterable. */
export function openAIChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
  hooks: ResponseHooks = {},
  monitor?: StreamMonitor,
): AsyncGenerator<ChatCompletionChunk> {
  return transformChunks(new OpenAIChunkTransform(target, hooks, monitor), body, monitor);
}
