import { clearArray } from '../../shared/clear-array.js';
import type { StreamMonitor } from './provider-adapter.js';

/** One server-sent event. */
export interface SseEvent {
  /** The `event:` field, when the server named the event. */
  event: string | undefined;
  /** The `data:` lines, joined with `\n`. */
  data: string;
}

/** The largest event (or unterminated line) accepted: a server that never ends one cannot exhaust memory. */
export const MAX_SSE_EVENT_CHARS = 16 * 1024 * 1024;

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const DATA = Buffer.from('data');
const EVENT = Buffer.from('event');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Whether `line[start, end)` is the field name `name`. */
function isField(line: Buffer, start: number, end: number, name: Buffer): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (line[start + i] !== name[i]) return false;
  return true;
}

/**
 * A synchronous `text/event-stream` decoder (WHATWG rules: `data:` lines accumulate, a blank line
 * dispatches, `:` lines are comments, `\n` or `\r\n` line ends, a leading byte-order mark is
 * skipped): bytes in, complete events out, with no async turn. It scans bytes for line ends and
 * decodes only each field's value, once: a line end is never inside a UTF-8 character, so bytes split
 * anywhere, even inside one, are handled. The one SSE parser: `parseSse` and the stream reader both
 * run on it.
 */
export class SseDecoder {
  /** The bytes of a line not ended yet. */
  #rest: Buffer | undefined;
  #started = false;
  #event: string | undefined;
  readonly #data: string[] = [];
  #pending = 0;

  /** Decodes `bytes`, appending the events they complete to `out`. Throws when an event is too large. */
  push(bytes: Uint8Array, out: SseEvent[]): void {
    let buffer = asBuffer(bytes);
    if (this.#rest) {
      buffer = Buffer.concat([this.#rest, buffer]);
      this.#rest = undefined;
    }
    let start = this.#skipBom(buffer);
    for (let end = buffer.indexOf(LF, start); end !== -1; end = buffer.indexOf(LF, start)) {
      this.#line(buffer, start, end > start && buffer[end - 1] === CR ? end - 1 : end, out);
      start = end + 1;
    }
    if (start < buffer.length) this.#rest = buffer.subarray(start);
    if ((this.#rest?.length ?? 0) + this.#pending > MAX_SSE_EVENT_CHARS) {
      throw Object.assign(new Error(`an event of the stream exceeded ${MAX_SSE_EVENT_CHARS} characters`), {
        code: 'SSE_EVENT_TOO_LARGE',
      });
    }
  }

  /** The body ended: appends an event left without its blank line (many servers end so). */
  end(out: SseEvent[]): void {
    const rest = this.#rest;
    this.#rest = undefined;
    if (rest) {
      const end = rest[rest.length - 1] === CR ? rest.length - 1 : rest.length;
      const start = this.#skipBom(rest);
      if (end - start >= 5 && rest[start + 4] === COLON && isField(rest, start, start + 4, DATA))
        this.#line(rest, start, end, out);
    }
    if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n') });
    clearArray(this.#data);
  }

  /** Where the stream's first bytes begin past a byte-order mark (only at the very start). */
  #skipBom(buffer: Buffer): number {
    if (this.#started) return 0;
    if (buffer.length < BOM.length && BOM.subarray(0, buffer.length).equals(buffer)) return 0;
    this.#started = true;
    return buffer.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
  }

  #line(line: Buffer, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      const data = this.#data;
      if (data.length > 0)
        out.push({ event: this.#event, data: data.length === 1 ? data[0]! : data.join('\n') });
      this.#event = undefined;
      clearArray(data);
      this.#pending = 0;
      return;
    }
    if (line[start] === COLON) return; // a comment
    let colon = line.indexOf(COLON, start);
    if (colon === -1 || colon > end) colon = end;
    let valueAt = colon + 1;
    if (valueAt < end && line[valueAt] === SPACE) valueAt++;
    if (isField(line, start, colon, DATA)) {
      const value = valueAt < end ? line.toString('utf8', valueAt, end) : '';
      this.#data.push(value);
      this.#pending += value.length;
    } else if (isField(line, start, colon, EVENT)) {
      this.#event = valueAt < end ? line.toString('utf8', valueAt, end) : '';
    }
  }
}

/**
 * Parses a `text/event-stream` body into events (see `SseDecoder`). Every dispatched event is told to
 * `monitor` as it is handed out (comments and bytes are not events: a server that drips bytes or only
 * sends keep-alive comments does not keep a stream alive).
 */
export async function* parseSse(
  body: AsyncIterable<Uint8Array>,
  monitor?: StreamMonitor,
): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for await (const bytes of body) {
    decoder.push(bytes, events);
    for (let i = 0; i < events.length; i++) {
      monitor?.event();
      yield events[i]!;
    }
    clearArray(events);
  }
  decoder.end(events);
  for (const event of events) {
    monitor?.event();
    yield event;
  }
}
