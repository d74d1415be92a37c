import { clearArray } from '../../shared/clear-array.js';
import type { ChunkTransform, StreamMonitor } from './provider-adapter.js';
import { parseSse } from './sse.js';

/**
 * A provider's `ChunkTransform` run over a whole body held as an async iterable: its chunks, event by
 * event, then what `end` adds (it throws when the stream ended before its finish).
 */
export async function* transformChunks<Chunk>(
  transform: ChunkTransform<Chunk>,
  body: AsyncIterable<Uint8Array>,
  monitor?: StreamMonitor,
): AsyncGenerator<Chunk> {
  const out: Chunk[] = [];
  for await (const event of parseSse(body, monitor)) {
    transform.event(event, out);
    yield* out;
    clearArray(out);
  }
  transform.end(out);
  yield* out;
}
