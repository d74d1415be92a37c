import { errorReply } from '../http/proxy-error.js';
import type { AnthropicStreamEvent } from './to-anthropic-events.js';

/** Anthropic's error body, with the proxy's stable `code` added (Anthropic clients ignore it). */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string; code: string };
}

/** Anthropic's error `type` for each status it uses. */
const TYPE_FOR_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Anthropic's error `type` for an HTTP status; other client errors are invalid requests. */
export function anthropicErrorType(status: number): string {
  return TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * Anything a `/v1/messages` call threw as Anthropic's error body: `error.type` from the status (400
 * `invalid_request_error`, 429 `rate_limit_error`, 503 and 529 `overloaded_error`, ...), the error's
 * message and its `code`. Any other value gives a 500 `api_error` with a generic message: its own
 * message may hold anything, secrets included.
 *
 * @example anthropicErrorBody(new RateLimitError('slow down'))
 * // => { type: 'error', error: { type: 'rate_limit_error', message: 'slow down', code: 'rate_limit' } }
 */
export function anthropicErrorBody(error: unknown): AnthropicErrorBody {
  // the proxy decides status, code and message once, for both APIs; only the shape differs here
  const { status, body } = errorReply(error);
  return {
    type: 'error',
    error: { type: anthropicErrorType(status), message: body.error.message, code: body.error.code },
  };
}

/**
 * The in-band `error` event of a stream that fails after its first byte (the status line is long
 * sent): Anthropic's error body as the event's data, which the Anthropic SDK throws as its error
 * class. Send it with `sseEvent(event.event, event.data)` and end the stream.
 *
 * @example anthropicErrorEvent(new RateLimitError('slow down'))
 * // => { event: 'error', data: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down', code: 'rate_limit' } } }
 */
export function anthropicErrorEvent(error: unknown): AnthropicStreamEvent {
  return { event: 'error', data: { ...anthropicErrorBody(error) } };
}
