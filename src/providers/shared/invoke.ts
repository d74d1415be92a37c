import type { Dispatcher } from 'undici';
import { InternalServerError, TimeoutError } from '../../errors/classes.js';
import { type ErrorContext, errorFromNetwork, errorFromResponse } from '../../errors/map-error.js';
import { requestFault } from '../../errors/request-fault.js';
import { RouterError } from '../../errors/router-error.js';
import { CallTimer } from './call-timer.js';
import { errorContextOf } from './error-context.js';
import type { HttpClient, WireRequest } from './http-client.js';
import type {
  CallOptions,
  JsonOperation,
  ProviderAdapter,
  ProviderTarget,
  StreamOperation,
} from './provider-adapter.js';

const contextOf = (target: ProviderTarget): ErrorContext => errorContextOf(target);

/**
 * What a failure without an HTTP answer becomes: the caller's abort reason as is (not a provider
 * failure, never retried), TimeoutError when our deadline fired, else the network mapping.
 */
function failureOf(
  err: unknown,
  timer: CallTimer,
  options: CallOptions,
  target: ProviderTarget,
  what: string,
): unknown {
  if (options.signal?.aborted) return options.signal.reason ?? err;
  if (timer.expired) {
    const { provider, model, modelId } = target;
    const limit =
      what === 'stream'
        ? `stream_timeout (${options.streamTimeoutMs} ms)`
        : `timeout (${options.timeoutMs} ms)`;
    return new TimeoutError(`${provider}/${model} ${what} timed out: no data within ${limit}`, {
      provider,
      model,
      modelId,
      cause: err,
    });
  }
  return errorFromNetwork(err, contextOf(target), what);
}

/**
 * Builds the wire request. A request that cannot be serialised (a cycle, a BigInt, nesting too deep, a
 * throwing `toJSON`) is the request's own fault: it becomes a `requestFault` BadRequestError, which the
 * router never counts against a deployment. Checked only when building failed, so it costs nothing.
 */
async function buildWire<Req>(
  operation: {
    build(request: Req, target: ProviderTarget, options: CallOptions): WireRequest | Promise<WireRequest>;
  },
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<WireRequest> {
  try {
    return await operation.build(request, target, options);
  } catch (err) {
    if (RouterError.isInstance(err)) throw err;
    try {
      JSON.stringify(request);
    } catch (cause) {
      throw requestFault('the request', cause);
    }
    throw err;
  }
}

/** The most of an error body that is read: enough for any provider's message, bounded whatever is sent. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

async function readErrorBody(body: Dispatcher.ResponseData['body']): Promise<string> {
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

async function send(
  http: HttpClient,
  adapter: ProviderAdapter,
  wire: WireRequest,
  target: ProviderTarget,
  options: CallOptions,
  timer: CallTimer,
): Promise<Dispatcher.ResponseData> {
  let response: Dispatcher.ResponseData;
  try {
    // undici's coarse timeouts stay as a backstop behind the precise timer
    const backstopMs = Math.max(options.timeoutMs, options.streamTimeoutMs) + 1000;
    response = await http.send(wire, {
      headersTimeoutMs: backstopMs,
      bodyTimeoutMs: backstopMs,
      signal: timer.signal,
    });
  } catch (err) {
    throw failureOf(err, timer, options, target, 'request');
  }
  if (response.statusCode < 400) return response;
  const text = await readErrorBody(response.body);
  const failure = adapter.readError(response.statusCode, text, response.headers);
  throw errorFromResponse({ ...failure, body: text }, contextOf(target), adapter.errorCodes);
}

/**
 * Runs one request/response operation: build, send over the pool, map any failure to a contract
 * error, parse. The only place non-streaming provider calls happen. `timeout` covers the whole call.
 */
export async function invokeJson<Req, Res>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: JsonOperation<Req, Res>,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<Res> {
  const wire = await buildWire(operation, request, target, options);
  const timer = new CallTimer(options.timeoutMs, options.signal);
  try {
    const response = await send(http, adapter, wire, target, options, timer);
    let json: unknown;
    try {
      json = await response.body.json();
    } catch (err) {
      if (err instanceof SyntaxError) {
        throw new InternalServerError(
          `${target.provider}/${target.model} answered with a body that is not JSON`,
          {
            provider: target.provider,
            model: target.model,
            modelId: target.modelId,
            cause: err,
          },
        );
      }
      throw failureOf(err, timer, options, target, 'response');
    }
    return operation.parse(json, target, request);
  } finally {
    timer.clear();
  }
}

async function* ticking(body: AsyncIterable<Uint8Array>, timer: CallTimer): AsyncGenerator<Uint8Array> {
  for await (const bytes of body) {
    timer.refresh();
    yield bytes;
  }
}

async function* guardStream<Chunk>(
  chunks: AsyncIterable<Chunk>,
  body: Dispatcher.ResponseData['body'],
  target: ProviderTarget,
  options: CallOptions,
  timer: CallTimer,
): AsyncGenerator<Chunk> {
  try {
    yield* chunks;
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
 * Opens a streaming operation and returns its chunks. `timeout` covers the wait for the response
 * headers; then `stream_timeout` bounds every gap between chunks. Failures before the stream opens
 * throw here; failures while reading (cut, stalled, provider error event, missing terminal event)
 * throw from the iterator as contract errors.
 */
export async function invokeStream<Req, Chunk>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: StreamOperation<Req, Chunk>,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<AsyncIterable<Chunk>> {
  const wire = await buildWire(operation, request, target, options);
  const timer = new CallTimer(options.timeoutMs, options.signal);
  let response: Dispatcher.ResponseData;
  try {
    response = await send(http, adapter, wire, target, options, timer);
  } catch (err) {
    timer.clear();
    throw err;
  }
  timer.restart(options.streamTimeoutMs);
  const chunks = operation.parse(ticking(response.body, timer), target, request);
  return guardStream(chunks, response.body, target, options, timer);
}
