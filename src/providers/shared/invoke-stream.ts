import type { Dispatcher } from 'undici';
import type { RouterError } from '../../errors/router-error.js';
import { isPromise } from '../../stores/store.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import { CallTimer } from './call-timer.js';
import { carriesContent } from './chunk-content.js';
import type { HttpClient, WireRequest } from './http-client.js';
import { answerError, type Body, buildWire, failedResponse, failureOf, send, sendOptions } from './invoke.js';
import type {
  CallOptions,
  ProviderAdapter,
  ProviderTarget,
  StreamMonitor,
  StreamOperation,
} from './provider-adapter.js';
import { responseTooLarge } from './provider-errors.js';
import { StreamReader } from './stream-reader.js';
import type { StreamedResponse } from './streamed-response.js';

// The streaming operations: `invokeStream` opens one, and its chunks come through the stream reader
// (a synchronous transform) or through the operation's own parser of a Node body, with the call's
// guards. invoke.ts has what every operation shares (building, sending, failures).

const ignore = (): void => {};

/** The body as is, failing once more than `limit` bytes came. */
async function* limited(body: Body, limit: number, target: ProviderTarget): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const bytes of body) {
    size += (bytes as Buffer).length;
    if (size > limit) throw responseTooLarge(target, limit);
    yield bytes as Buffer;
  }
}

/** Yields chunks already in hand, timing the caller's pause after each (see `CallTimer.delivered`). */
function* handOver<Chunk>(chunks: readonly Chunk[], timer: CallTimer): Generator<Chunk> {
  for (const chunk of chunks) {
    timer.delivered();
    yield chunk;
    resumed(timer);
  }
}

/**
 * The caller asks for the next chunk. A deadline that fired during its pause closed the stream:
 * chunks already parsed are not handed out after that, the failure is.
 */
function resumed(timer: CallTimer): void {
  timer.reading();
  if (timer.expiry !== undefined) throw new Error(timer.expiry);
}

/**
 * The chunks with the call's guards: chunks before the first content chunk (a role-only opener) are
 * held back and yielded with it, so a stream that never produces content fails before its first
 * chunk, where the router can still fail over; the first content chunk ends `first_token_timeout`; a
 * failure becomes a contract error; the timer and the socket are released however the stream ends.
 * The time the caller holds a chunk is its own: `stream_timeout` then bounds its pause, not the upstream.
 */
async function* guardStream<Chunk extends ChatCompletionChunk>(
  chunks: AsyncIterable<Chunk>,
  body: Body,
  target: ProviderTarget,
  options: CallOptions,
  timer: CallTimer,
): AsyncGenerator<Chunk> {
  let held: Chunk[] | undefined;
  let answering = false;
  try {
    for await (const chunk of chunks) {
      if (!answering) {
        if (!carriesContent(chunk)) {
          if (held) held.push(chunk);
          else held = [chunk];
          continue;
        }
        answering = true;
        timer.firstToken();
        if (held) yield* handOver(held, timer);
        held = undefined;
      }
      timer.delivered();
      yield chunk;
      resumed(timer);
    }
    if (held) yield* handOver(held, timer);
  } catch (err) {
    const failure = failureOf(err, timer, options, target, 'stream');
    throw failure as RouterError;
  } finally {
    timer.clear();
    // a caller that stops early must not leave the socket busy
    if (!body.destroyed && !body.readableEnded) body.destroy();
  }
}

/**
 * Opens a streaming operation and returns its chunks. Its deadlines run from the request's start:
 * `stream_timeout` until the first complete event and then between two (bytes that do not complete an
 * event do not count), `first_token_timeout` until the first content chunk, `stream_total_timeout`
 * for the whole stream; each fails with a TimeoutError naming it. The first chunk the iterator yields
 * is the first content chunk (with any role-only chunk before it), so failures until then reach
 * whoever awaits it, before any chunk is out. Failures before the stream opens reject the promise it
 * returns (it never throws); failures while reading (cut, stalled, too large, provider error event,
 * ended before its finish) throw from the iterator as contract errors. Events that are not JSON are
 * skipped and told to `options.onWarning`.
 */
export function invokeStream<Req, Chunk extends ChatCompletionChunk>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: StreamOperation<Req, Chunk>,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<AsyncIterable<Chunk>> {
  // not an async function: the common stream (its request built at once, its events transformed
  // synchronously) is `readStream`'s promise itself, without a frame and a promise of this one's;
  // a failure is still always a rejection
  try {
    const built = buildWire(operation, request, target, options);
    if (isPromise(built))
      return built.then((wire) => openStream(http, adapter, operation, wire, request, target, options));
    return openStream(http, adapter, operation, built, request, target, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

function openStream<Req, Chunk extends ChatCompletionChunk>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: StreamOperation<Req, Chunk>,
  wire: WireRequest,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<AsyncIterable<Chunk>> {
  const timer = CallTimer.forStream(options, options.signal, options.onUnread);
  const transform = operation.transform;
  if (transform) return readStream(http, adapter, transform, wire, request, target, options, timer);
  return readNodeStream(http, adapter, operation, wire, request, target, options, timer);
}

/** A stream whose operation parses a Node body (`parse`, no synchronous `transform`). */
async function readNodeStream<Req, Chunk extends ChatCompletionChunk>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: StreamOperation<Req, Chunk>,
  wire: WireRequest,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
  timer: CallTimer,
): Promise<AsyncIterable<Chunk>> {
  let response: Dispatcher.ResponseData;
  try {
    response = await send(http, wire, timer, options.streamTimeoutMs);
  } catch (err) {
    timer.clear();
    throw failureOf(err, timer, options, target, 'request');
  }
  if (response.statusCode >= 400) {
    try {
      await failedResponse(response, adapter, target);
    } finally {
      timer.clear();
    }
  }
  // only a body closed before its end (cut, or destroyed by a deadline) is news: one that ended has
  // all its bytes buffered for a reader who has not started yet
  const onBodyClose = options.onBodyClose;
  if (onBodyClose) response.body.once('close', () => response.body.readableEnded || onBodyClose());
  const monitor = monitorOf(timer, options);
  const limit = options.maxResponseBytes;
  const body = limit === undefined ? response.body : limited(response.body, limit, target);
  const chunks = operation.parse(body, target, request, monitor);
  return guardStream(chunks, response.body, target, options, timer);
}

const monitorOf = (timer: CallTimer, options: CallOptions): StreamMonitor => ({
  event: () => timer.event(),
  warn: options.onWarning ?? ignore,
});

/**
 * A stream whose operation has a synchronous `transform`: the body is read through a dispatch handler
 * into a `StreamReader` (no Node stream, no async turn per chunk).
 */
async function readStream<Req, Chunk extends ChatCompletionChunk>(
  http: HttpClient,
  adapter: ProviderAdapter,
  makeTransform: NonNullable<StreamOperation<Req, Chunk>['transform']>,
  wire: WireRequest,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
  timer: CallTimer,
): Promise<AsyncIterable<Chunk>> {
  let response: StreamedResponse;
  try {
    response = await http.sendStreaming(wire, sendOptions(timer, options.streamTimeoutMs));
  } catch (err) {
    timer.clear();
    throw failureOf(err, timer, options, target, 'request');
  }
  const { statusCode, headers, body, errorBody } = response;
  if (!body) {
    timer.clear();
    throw answerError(statusCode, errorBody.toString('utf8'), headers, adapter, target);
  }
  // only a body closed before its end (cut, or closed by a deadline or its reader) is news
  if (options.onBodyClose) body.onClosedEarly(options.onBodyClose);
  const transform = makeTransform(target, request, monitorOf(timer, options));
  return new StreamReader(body, transform, target, options, timer);
}
