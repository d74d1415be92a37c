import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { InternalServerError, TimeoutError } from '../../errors/classes.js';
import { type ErrorContext, errorFromNetwork, errorFromResponse } from '../../errors/map-error.js';
import { requestFault, unserialisablePath } from '../../errors/request-fault.js';
import { RouterError } from '../../errors/router-error.js';
import { clampTimerMs } from '../../shared/timers.js';
import { isPromise } from '../../stores/store.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import { BodyReadError, BodyTooLargeError, type BufferedResponse } from './buffered-response.js';
import { CallTimer } from './call-timer.js';
import { carriesContent } from './chunk-content.js';
import { errorContextOf } from './error-context.js';
import type { HttpClient, WireRequest } from './http-client.js';
import type {
  CallOptions,
  JsonOperation,
  ProviderAdapter,
  ProviderTarget,
  StreamMonitor,
  StreamOperation,
} from './provider-adapter.js';
import { errorOptions, responseTooLarge } from './provider-errors.js';
import { StreamReader } from './stream-reader.js';
import type { StreamedResponse } from './streamed-response.js';
import { errorInSuccessBody } from './success-body.js';

type Body = Dispatcher.ResponseData['body'];

const ignore = (): void => {};

const contextOf = (target: ProviderTarget): ErrorContext => errorContextOf(target);

/**
 * What a failure without an HTTP answer becomes: the caller's abort reason as is (not a provider
 * failure, never retried), TimeoutError naming the limit when one of our deadlines fired, else the
 * network mapping.
 */
export function failureOf(
  err: unknown,
  timer: CallTimer,
  options: CallOptions,
  target: ProviderTarget,
  what: string,
): unknown {
  if (options.signal?.aborted) return options.signal.reason ?? err;
  const expiry = timer.expiry;
  if (expiry !== undefined) {
    const { provider, model } = target;
    return new TimeoutError(`${provider}/${model} ${what} timed out: ${expiry}`, {
      ...errorOptions(target),
      cause: err,
    });
  }
  return errorFromNetwork(err, contextOf(target), what);
}

/**
 * Builds the wire request: synchronously when the adapter does (no await, no microtask turn: the
 * common case), else a promise (an adapter that fetches a token first). A request that cannot be
 * serialised (a cycle, a BigInt, nesting too deep, a throwing `toJSON` or getter) is the request's own
 * fault: it becomes a `requestFault` BadRequestError naming the field, which the router never counts
 * against a deployment. So is a request the adapter cannot translate because a field has a type it
 * does not take (`content: 5` fails with "content.map is not a function"): a TypeError or RangeError
 * from translating the caller's values, never from the deployment (credential and token failures are
 * already contract errors). Checked only when building failed, so it costs nothing.
 */
export function buildWire<Req>(
  operation: {
    build(request: Req, target: ProviderTarget, options: CallOptions): WireRequest | Promise<WireRequest>;
  },
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): WireRequest | Promise<WireRequest> {
  let wire: WireRequest | Promise<WireRequest>;
  try {
    wire = operation.build(request, target, options);
  } catch (err) {
    throw buildFailure(err, request, target, options);
  }
  if (!isPromise(wire)) return wire;
  return Promise.resolve(wire).catch((err: unknown) => {
    throw buildFailure(err, request, target, options);
  });
}

/** What a failure to build the wire request becomes (see `buildWire`). */
function buildFailure(err: unknown, request: unknown, target: ProviderTarget, options: CallOptions): unknown {
  if (RouterError.isInstance(err) || options.signal?.aborted) return err;
  try {
    JSON.stringify(request);
  } catch (cause) {
    return requestFault(unserialisablePath(request, 'request'), cause);
  }
  if (err instanceof TypeError || err instanceof RangeError)
    return requestFault('request', err, `cannot be translated for ${target.provider}`);
  return err;
}

/** The most of an error body that is read: enough for any provider's message, bounded whatever is sent. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

async function readErrorBody(body: Body): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of body) {
      parts.push(part as Buffer);
      size += (part as Buffer).length;
      if (size >= MAX_ERROR_BODY_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // the status alone still says what happened
  }
  return Buffer.concat(parts).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
}

/**
 * What the pool is told for one request: undici's coarse timeouts a second past `limitMs`, a backstop
 * behind the call's precise timer (whose signal it gets), and how much of the body is read.
 */
function sendOptions(timer: CallTimer, limitMs: number, maxBodyBytes = Number.POSITIVE_INFINITY) {
  const backstopMs = clampTimerMs(limitMs + 1000);
  return {
    headersTimeoutMs: backstopMs,
    bodyTimeoutMs: backstopMs,
    signal: timer.signal,
    maxBodyBytes,
    maxErrorBodyBytes: MAX_ERROR_BODY_BYTES,
  };
}

/**
 * Sends a stream's wire request over the pool (see `sendOptions`). Resolves with any answer, error
 * statuses included; the caller maps a rejection with `failureOf` and an error status with
 * `failedResponse`.
 */
function send(
  http: HttpClient,
  wire: WireRequest,
  timer: CallTimer,
  limitMs: number,
): Promise<Dispatcher.ResponseData> {
  try {
    return http.send(wire, sendOptions(timer, limitMs));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The contract error of an answer with an error status, from its body's text. */
function answerError(
  statusCode: number,
  text: string,
  headers: IncomingHttpHeaders,
  adapter: ProviderAdapter,
  target: ProviderTarget,
): RouterError {
  const failure = adapter.readError(statusCode, text, headers);
  return errorFromResponse({ ...failure, body: text }, contextOf(target), adapter.errorCodes);
}

/** The contract error of a streamed answer with an error status, from its body. */
export async function failedResponse(
  response: Dispatcher.ResponseData,
  adapter: ProviderAdapter,
  target: ProviderTarget,
): Promise<never> {
  const text = await readErrorBody(response.body);
  throw answerError(response.statusCode, text, response.headers, adapter, target);
}

function notJson(target: ProviderTarget, err: unknown): InternalServerError {
  return new InternalServerError(`${target.provider}/${target.model} answered with a body that is not JSON`, {
    ...errorOptions(target),
    cause: err,
  });
}

/** What a buffered call's rejection becomes: too large, a deadline, the caller's abort, or the network. */
function bufferedFailure(
  err: unknown,
  timer: CallTimer,
  options: CallOptions,
  target: ProviderTarget,
): unknown {
  if (err instanceof BodyTooLargeError) return responseTooLarge(target, err.limit);
  if (err instanceof BodyReadError) return failureOf(err.cause, timer, options, target, 'response');
  return failureOf(err, timer, options, target, 'request');
}

/** A success body's JSON (a leading byte-order mark is not part of it). */
function parseBody(body: Buffer, target: ProviderTarget): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw notJson(target, err);
  }
}

/**
 * Runs one request/response operation: build, send over the pool, map any failure to a contract
 * error, read the body (at most `maxResponseBytes`), parse. The only place non-streaming provider
 * calls happen. `timeout` covers the whole call. A 2xx body that the operation cannot parse because it
 * is an error object fails with the class the adapter's `readError` gives it.
 */
export async function invokeJson<Req, Res>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: JsonOperation<Req, Res>,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<Res> {
  const built = buildWire(operation, request, target, options);
  const wire = isPromise(built) ? await built : built;
  const timer = CallTimer.forCall(options.timeoutMs, options.signal, options.deadlines);
  let response: BufferedResponse;
  try {
    response = await http.sendBuffered(wire, sendOptions(timer, options.timeoutMs, options.maxResponseBytes));
  } catch (err) {
    throw bufferedFailure(err, timer, options, target);
  } finally {
    timer.clear();
  }
  const { statusCode, headers, body } = response;
  if (statusCode >= 400) throw answerError(statusCode, body.toString('utf8'), headers, adapter, target);
  const json = operation.readsText?.(request) ? body.toString('utf8') : parseBody(body, target);
  try {
    return operation.parse(json, target, request);
  } catch (err) {
    throw errorInSuccessBody(json, adapter, target, headers) ?? err;
  }
}

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
