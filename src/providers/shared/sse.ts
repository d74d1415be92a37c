import { StringDecoder } from 'node:string_decoder';
import { clearArray } from '../../shared/clear-array.js';
import type { StreamMonitor } from './provider-adapter.js';

/** One server-sent event. */
export interface SseEvent {
  /** The `event:` field, when the server named the event. */
  event: string | undefined;
  /** The `data:` lines, joined with `\n`. */
  data: string;
}

// An event as the decoder makes it: by `new`, not as a literal, so that V8 cannot decide to allocate
// every event in the old generation (src/providers/shared/chunk-objects.ts says why that costs); a
// plain object still (its prototype is Object.prototype), as `parseSse` yields it.
function PlainEvent(this: SseEvent, event: string | undefined, data: string): void {
  this.event = event;
  this.data = data;
}
PlainEvent.prototype = Object.prototype;
const DecodedEvent = PlainEvent as unknown as new (event: string | undefined, data: string) => SseEvent;

/** The largest event (or unterminated line) accepted: a server that never ends one cannot exhaust memory. */
export const MAX_SSE_EVENT_CHARS = 16 * 1024 * 1024;

const CR = 13;
const LF = 10;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;

/**
 * Pieces of a line shorter than this are joined in runs of `RUN` as they come, until a run is this
 * long: each held piece costs a string's header and an array slot (about 30 bytes), sixteen times the
 * text of a line that trickles in two bytes a read. Longer pieces are kept as they are (their overhead
 * is an eighth of them at most).
 */
const SHORT = 256;
const RUN = 64;

/**
 * A synchronous `text/event-stream` decoder (WHATWG rules: `data:` lines accumulate, a blank line
 * dispatches, `:` lines are comments, `\n` or `\r\n` line ends, a leading byte-order mark is
 * skipped): bytes in, complete events out, with no async turn. Each read's bytes are decoded to text
 * once (a UTF-8 character split between reads is held until its last byte arrives) and its lines are
 * found by string search: less CPU than searching the bytes and decoding each value on its own (the
 * bench's seven-frame OpenAI stream: 11 to 16% less read frame by frame, 22 to 24% read at once). A line
 * longer than one read is kept in pieces and joined once, when its end arrives (short pieces in runs
 * as they come: a line's memory stays about its own size however small the reads). The one SSE parser:
 * `parseSse` and the stream reader both run on it.
 */
export class SseDecoder {
  readonly #utf8 = new StringDecoder('utf8');
  /** The text of a line not ended yet, in the pieces it arrived in (joined once its end arrives). */
  readonly #rest: string[] = [];
  #restChars = 0;
  /** How many of `#rest`'s last pieces are short (`SHORT`) and not joined into a run yet. */
  #shortPieces = 0;
  #started = false;
  #event: string | undefined;
  readonly #data: string[] = [];
  /** The characters of the event's data so far, each line with the line end that joins it. */
  #pending = 0;

  /** @param maxEventChars the largest event (or unterminated line) accepted, in characters. */
  constructor(private readonly maxEventChars = MAX_SSE_EVENT_CHARS) {}

  /** Decodes `bytes`, appending the events they complete to `out`. Throws when an event is too large. */
  push(bytes: Uint8Array, out: SseEvent[]): void {
    let text = this.#text(this.#utf8.write(bytes));
    let end = text.indexOf('\n');
    if (end === -1) {
      // no line ends here: kept as a piece, not joined to what came before (a long line is copied once)
      if (text !== '') this.#hold(text);
      return;
    }
    if (this.#rest.length > 0) {
      end += this.#restChars;
      this.#rest.push(text);
      text = this.#rest.join('');
      this.#clearRest();
    }
    let start = 0;
    for (; end !== -1; end = text.indexOf('\n', start)) {
      // the common event's last line: one `data:` line with the blank line after it, handed out at once
      // (no line of its own kept, no second line read)
      if (
        text.charCodeAt(end + 1) === LF &&
        this.#data.length === 0 &&
        text.startsWith('data:', start) &&
        text.charCodeAt(end - 1) !== CR
      ) {
        const valueAt = text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
        // a keyed store, not `out.push`: V8's optimiser inlines it from the store's feedback, where a
        // push on a parameter whose maps it cannot infer calls the builtin (about 100 instructions)
        out[out.length] = new DecodedEvent(this.#event, valueAt < end ? text.slice(valueAt, end) : '');
        this.#event = undefined;
        start = end + 2;
        continue;
      }
      this.#line(text, start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end, out);
      start = end + 1;
    }
    if (start < text.length) this.#hold(text.slice(start));
    else this.#check();
  }

  /** The body ended: appends an event left without its blank line (many servers end so). */
  end(out: SseEvent[]): void {
    this.#rest.push(this.#text(this.#utf8.end()));
    const rest = this.#rest.join('');
    this.#clearRest();
    const end = rest.charCodeAt(rest.length - 1) === CR ? rest.length - 1 : rest.length;
    if (end >= 5 && rest.charCodeAt(4) === COLON && rest.startsWith('data')) this.#line(rest, 0, end, out);
    if (this.#data.length > 0) out.push(new DecodedEvent(this.#event, this.#data.join('\n')));
    clearArray(this.#data);
  }

  /** `text` past a byte-order mark at the very start of the stream. */
  #text(text: string): string {
    if (this.#started || text === '') return text;
    this.#started = true;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }

  #hold(piece: string): void {
    const rest = this.#rest;
    rest.push(piece);
    this.#restChars += piece.length;
    if (piece.length >= SHORT) this.#shortPieces = 0;
    else if (++this.#shortPieces === RUN) {
      const run = rest.splice(rest.length - RUN, RUN).join('');
      rest.push(run);
      // a run still short is joined again with the next pieces (at most SHORT characters copied again)
      this.#shortPieces = run.length < SHORT ? 1 : 0;
    }
    this.#check();
  }

  #clearRest(): void {
    clearArray(this.#rest);
    this.#restChars = 0;
    this.#shortPieces = 0;
  }

  #check(): void {
    if (this.#restChars + this.#pending > this.maxEventChars) {
      throw Object.assign(new Error(`an event of the stream exceeded ${this.maxEventChars} characters`), {
        code: 'SSE_EVENT_TOO_LARGE',
      });
    }
  }

  #line(text: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      const data = this.#data;
      if (data.length > 0)
        out[out.length] = new DecodedEvent(this.#event, data.length === 1 ? data[0]! : data.join('\n'));
      this.#event = undefined;
      clearArray(data);
      this.#pending = 0;
      return;
    }
    if (text.charCodeAt(start) === COLON) return; // a comment
    // scanned within the line (a field name is a few characters): indexOf would search past its end,
    // to the next colon of the read, for every line that has none
    let colon = start;
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    let valueAt = colon + 1;
    if (valueAt < end && text.charCodeAt(valueAt) === SPACE) valueAt++;
    const name = colon - start;
    if (name === 4 && text.startsWith('data', start)) {
      const value = valueAt < end ? text.slice(valueAt, end) : '';
      this.#data.push(value);
      // the line end too: empty `data:` lines are no text, but each is a line of the event to keep
      this.#pending += value.length + 1;
    } else if (name === 5 && text.startsWith('event', start)) {
      this.#event = valueAt < end ? text.slice(valueAt, end) : '';
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
      yield detached(events[i]!);
    }
    clearArray(events);
  }
  decoder.end(events);
  for (const event of events) {
    monitor?.event();
    yield detached(event);
  }
}

/**
 * The event with strings of its own. The decoder's values are slices of their read's text, and V8
 * keeps a string's whole text alive while any slice of it (13 characters or more) is: a caller of
 * `parseSse` that keeps a small event of a large read would keep the read. The stream reader's events
 * are parsed at once and dropped, so it takes the slices.
 */
function detached(event: SseEvent): SseEvent {
  event.data = ownString(event.data);
  if (event.event !== undefined) event.event = ownString(event.event);
  return event;
}

const ownString = (text: string): string =>
  text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
