import { errorFromResponse } from '../../errors/map-error.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import { errorContextOf } from '../shared/error-context.js';
import type { ProviderTarget, StreamMonitor } from '../shared/provider-adapter.js';
import { streamEndedEarly } from '../shared/provider-errors.js';
import { parseSse } from '../shared/sse.js';
import { parseStreamJson } from '../shared/stream-json.js';
import { inBandError } from './error-map.js';
import type { ResponseHooks } from './options.js';
import { ChunkNormalizer, isEmptyChunk } from './stream-normalize.js';

/**
 * OpenAI-compatible SSE into `chat.completion.chunk`s. The first chunk yielded carries
 * `delta.role: 'assistant'` (and only it); chunks that say nothing after it are skipped. An `error`
 * object in the stream is thrown as its contract class. The stream is complete at `data: [DONE]`, or
 * when the body ends cleanly after every choice it showed got a `finish_reason` (many servers never
 * send `[DONE]`); one that ends before is an APIConnectionError, never a silent success. Keep-alive
 * comments are ignored by the SSE parser, events that are not JSON skipped and reported to `monitor`.
 */
export async function* openAIChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
  hooks: ResponseHooks = {},
  monitor?: StreamMonitor,
): AsyncGenerator<ChatCompletionChunk> {
  const normalizer = new ChunkNormalizer(target, hooks);
  const transform = hooks.chunkTransform?.(target);
  let started = false;
  let done = false;
  // choices seen (highest index + 1) and those finished: all finished is a complete answer
  let choices = 0;
  let finished: Set<number> | undefined;
  for await (const event of parseSse(body, monitor)) {
    if (done) continue; // drain so the connection goes back to the pool
    if (event.data === '[DONE]') {
      done = true;
      continue;
    }
    const json = parseStreamJson(event.data, target, 'an event', monitor);
    if (!json) continue;
    const error = inBandError(json);
    if (error) {
      throw errorFromResponse(error, errorContextOf(target));
    }
    for (const normalized of normalizer.normalize(json)) {
      for (const choice of normalized.choices) {
        if (choice.index >= choices) choices = choice.index + 1;
        if (choice.finish_reason === null) continue;
        finished ??= new Set();
        finished.add(choice.index);
      }
      const chunk = transform ? transform(normalized) : normalized;
      if (!chunk || (started && isEmptyChunk(chunk))) continue;
      const first = chunk.choices[0];
      if (!started && first) first.delta = { role: 'assistant', ...first.delta };
      else for (const choice of chunk.choices) delete choice.delta.role;
      started ||= first !== undefined;
      yield chunk;
    }
  }
  if (!done && (finished === undefined || finished.size < choices))
    throw streamEndedEarly(target, 'no finish_reason');
}
