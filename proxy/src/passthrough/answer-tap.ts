import { Transform, type TransformCallback } from 'node:stream';
import { type AnswerUsage, parseSse, type UsageReader } from '@svc/router';

/** The most of a plain (non-stream) answer kept to read its usage; past it the usage is not read. */
const MAX_JSON_BYTES = 8 * 1024 * 1024;

/** Chunks pushed as they pass, read by `parseSse` as an async iterable. */
class ChunkQueue implements AsyncIterable<Uint8Array> {
  #chunks: Uint8Array[] = [];
  #done = false;
  #wake: (() => void) | undefined;

  push(chunk: Uint8Array): void {
    if (this.#done) return;
    this.#chunks.push(chunk);
    this.#wake?.();
  }

  end(): void {
    this.#done = true;
    this.#wake?.();
  }

  /** Nobody reads on (the parser stopped: an event over its limit): what came, and what comes, is dropped. */
  drop(): void {
    this.#chunks = [];
    this.end();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) yield chunk;
      else if (this.#done) return;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/** JSON of an event's data, or undefined; only events that may carry usage or a model are parsed. */
function parsedEvent(data: string): unknown {
  if (!data.includes('usage') && !data.includes('"model')) return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * A pass-through stage for an answer's bytes that reads its usage on the side: each chunk is handed on
 * at once (nothing waits on the reading), an event stream is parsed event by event as it passes, a
 * plain JSON answer is kept (up to 8 MiB) and parsed at its end. `usage()` resolves when the answer
 * has ended, or at once with what was read so far when it was cut.
 */
export function answerTap(
  reader: UsageReader,
  eventStream: boolean,
): { stage: Transform; usage(): Promise<AnswerUsage> } {
  const queue = eventStream ? new ChunkQueue() : undefined;
  const parsing = queue
    ? (async () => {
        for await (const { data } of parseSse(queue)) {
          const value = parsedEvent(data);
          if (value !== undefined) reader.read(value);
        }
      })()
        .catch(() => undefined)
        .finally(() => queue.drop())
    : undefined;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const stage = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (queue) queue.push(chunk);
      else if (keptBytes <= MAX_JSON_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
      callback(null, chunk);
    },
    flush(callback) {
      queue?.end();
      callback();
    },
  });
  const ended = () => queue?.end();
  stage.once('close', ended);
  return {
    stage,
    async usage() {
      ended();
      await parsing;
      if (!queue && keptBytes > 0 && keptBytes <= MAX_JSON_BYTES) {
        try {
          reader.read(JSON.parse(Buffer.concat(kept).toString('utf8')));
        } catch {
          // not JSON (an error page, a cut body): no usage
        }
      }
      return reader.result();
    },
  };
}
