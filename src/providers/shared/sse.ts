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
 * Parses a `text/event-stream` body into events (WHATWG rules: `data:` lines accumulate, a blank line
 * dispatches, `:` lines are comments, `\n` or `\r\n` line ends). Bytes split anywhere, even inside a
 * UTF-8 character, are handled. Every dispatched event is told to `monitor` (comments and bytes are
 * not events: a server that drips bytes or only sends keep-alive comments does not keep a stream alive).
 */
export async function* parseSse(
  body: AsyncIterable<Uint8Array>,
  monitor?: StreamMonitor,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  let pending = 0;
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
      const line =
        buffer.charCodeAt(end - 1) === 13 ? buffer.slice(start, end - 1) : buffer.slice(start, end);
      start = end + 1;
      if (line === '') {
        if (data.length > 0) {
          monitor?.event();
          yield { event, data: data.length === 1 ? data[0]! : data.join('\n') };
        }
        event = undefined;
        data = [];
        pending = 0;
        continue;
      }
      if (line.charCodeAt(0) === 58) continue; // ':' comment
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      if (field === 'data') {
        data.push(value);
        pending += value.length;
      } else if (field === 'event') event = value;
    }
    buffer = buffer.slice(start);
    if (buffer.length + pending > MAX_SSE_EVENT_CHARS) {
      throw Object.assign(new Error(`an event of the stream exceeded ${MAX_SSE_EVENT_CHARS} characters`), {
        code: 'SSE_EVENT_TOO_LARGE',
      });
    }
  }
  buffer += decoder.decode();
  if (buffer.length > 0 && buffer.startsWith('data:')) data.push(buffer.slice(5).trimStart());
  if (data.length > 0) {
    monitor?.event();
    yield { event, data: data.join('\n') };
  }
}
