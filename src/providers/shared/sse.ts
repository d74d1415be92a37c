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

/**
 * A synchronous `text/event-stream` decoder (WHATWG rules: `data:` lines accumulate, a blank line
 * dispatches, `:` lines are comments, `\n` or `\r\n` line ends): bytes in, complete events out, with
 * no async turn. Bytes split anywhere, even inside a UTF-8 character, are handled. The one SSE parser:
 * `parseSse` and the stream reader both run on it.
 */
export class SseDecoder {
  readonly #decoder = new TextDecoder();
  #buffer = '';
  #event: string | undefined;
  #data: string[] = [];
  #pending = 0;

  /** Decodes `bytes`, appending the events they complete to `out`. Throws when an event is too large. */
  push(bytes: Uint8Array, out: SseEvent[]): void {
    const buffer = this.#buffer + this.#decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
      const line =
        buffer.charCodeAt(end - 1) === 13 ? buffer.slice(start, end - 1) : buffer.slice(start, end);
      start = end + 1;
      this.#line(line, out);
    }
    this.#buffer = start === 0 ? buffer : buffer.slice(start);
    if (this.#buffer.length + this.#pending > MAX_SSE_EVENT_CHARS) {
      throw Object.assign(new Error(`an event of the stream exceeded ${MAX_SSE_EVENT_CHARS} characters`), {
        code: 'SSE_EVENT_TOO_LARGE',
      });
    }
  }

  /** The body ended: appends an event left without its blank line (many servers end so). */
  end(out: SseEvent[]): void {
    const buffer = this.#buffer + this.#decoder.decode();
    this.#buffer = '';
    if (buffer.length > 0 && buffer.startsWith('data:')) this.#data.push(buffer.slice(5).trimStart());
    if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n') });
    this.#data = [];
  }

  #line(line: string, out: SseEvent[]): void {
    if (line === '') {
      const data = this.#data;
      if (data.length > 0)
        out.push({ event: this.#event, data: data.length === 1 ? data[0]! : data.join('\n') });
      this.#event = undefined;
      if (data.length > 0) this.#data = [];
      this.#pending = 0;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.#data.push(value);
      this.#pending += value.length;
    } else if (field === 'event') this.#event = value;
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
    events.length = 0;
  }
  decoder.end(events);
  for (const event of events) {
    monitor?.event();
    yield event;
  }
}
