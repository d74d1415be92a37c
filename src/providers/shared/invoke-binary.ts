import type { Dispatcher } from 'undici';
import { clampTimerMs } from '../../shared/timers.js';
import { isPromise } from '../../stores/store.js';
import { CallTimer } from './call-timer.js';
import type { HttpClient } from './http-client.js';
import { buildWire, failedResponse, failureOf } from './invoke.js';
import type { BinaryOperation, CallOptions, ProviderAdapter, ProviderTarget } from './provider-adapter.js';

/** A binary answer whose headers have arrived: its content type and its body, still streaming. */
export interface BinaryAnswer {
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}

/**
 * Runs an operation answered with bytes (speech): build, send, map a failure or an error status to a
 * contract error, and hand back the body as it streams. `timeoutMs` bounds the wait for the headers;
 * after them each gap in the body is bounded by `streamTimeoutMs` (a stalled body fails its reader).
 */
export async function invokeBinary<Req>(
  http: HttpClient,
  adapter: ProviderAdapter,
  operation: BinaryOperation<Req>,
  request: Req,
  target: ProviderTarget,
  options: CallOptions,
): Promise<BinaryAnswer> {
  const built = buildWire(operation, request, target, options);
  const wire = isPromise(built) ? await built : built;
  const timer = CallTimer.forCall(options.timeoutMs, options.signal, options.deadlines);
  let response: Dispatcher.ResponseData;
  try {
    response = await http.send(wire, {
      headersTimeoutMs: clampTimerMs(options.timeoutMs + 1000),
      bodyTimeoutMs: clampTimerMs(options.streamTimeoutMs),
      signal: timer.signal,
    });
  } catch (err) {
    throw failureOf(err, timer, options, target, 'request');
  } finally {
    timer.clear();
  }
  if (response.statusCode >= 400) await failedResponse(response, adapter, target);
  const type = response.headers['content-type'];
  return {
    contentType: (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream',
    body: response.body,
  };
}
