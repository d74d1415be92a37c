import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { InternalServerError, TimeoutError } from '../../errors/classes.js';
import { type ErrorContext, errorFromNetwork, errorFromResponse } from '../../errors/map-error.js';
import { requestFault, unserialisablePath } from '../../errors/request-fault.js';
import { RouterError } from '../../errors/router-error.js';
import { clampTimerMs } from '../../shared/timers.js';
import { isPromise } from '../../stores/store.js';
import { BodyReadError, BodyTooLargeError, type BufferedResponse } from './buffered-response.js';
import { CallTimer } from './call-timer.js';
import { errorContextOf } from './error-context.js';
import type { HttpClient, WireRequest } from './http-client.js';
import type { CallOptions, JsonOperation, ProviderAdapter, ProviderTarget } from './provider-adapter.js';
import { errorOptions, responseTooLarge } from './provider-errors.js';
import { errorInSuccessBody } from './success-body.js';

/** A response body as undici's `request()` gives it. */
export type Body = Dispatcher.ResponseData['body'];

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
export function sendOptions(timer: CallTimer, limitMs: number, maxBodyBytes = Number.POSITIVE_INFINITY) {
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
export function send(
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
export function answerError(
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
