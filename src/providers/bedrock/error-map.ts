import type { UpstreamFailure } from '../../errors/map-error.js';
import { asString, parseJsonObject } from '../shared/json.js';

// Bedrock says "Input is too long for requested model.", "prompt is too long: N tokens > M maximum",
// "too many input tokens": all a ValidationException, all the context window.
const CONTEXT_TEXT =
  /\b(input|prompt|request|messages?|conversation)\b[^.]*\btoo long\b|too many (input )?tokens|context (window|length)/i;

/** The error type of an `x-amzn-errortype` header (`ThrottlingException:http://internal.amazon.com/...`). */
export function errorTypeOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers['x-amzn-errortype'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const type = value?.split(':')[0]?.trim();
  return type ? type : undefined;
}

/**
 * The code that decides the class of a Bedrock error: its exception type, except that a
 * ValidationException about input length is the context window (`context_length_exceeded`).
 */
export function bedrockErrorCode(type: string | undefined, message: string): string | undefined {
  if (type && /^validationexception$/i.test(type) && CONTEXT_TEXT.test(message))
    return 'context_length_exceeded';
  return type;
}

/**
 * Reads a Bedrock error answer: the exception type from the `x-amzn-errortype` header (else the
 * body's `__type`, `code` or `type`), the message from the body's `message` (IAM answers `Message`).
 * The shared mapping then picks the class: ThrottlingException -> RateLimitError, AccessDeniedException
 * -> PermissionDeniedError, ResourceNotFoundException -> NotFoundError, ServiceUnavailableException /
 * ModelNotReadyException -> ServiceUnavailableError, ModelTimeoutException -> TimeoutError, a
 * ValidationException about input length -> ContextWindowExceededError, other ValidationExceptions ->
 * BadRequestError. Bodies that are not JSON keep their first 500 characters.
 */
export function readBedrockError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const body = parseJsonObject(bodyText);
  const message = asString(body?.message) ?? asString(body?.Message) ?? bodyText.slice(0, 500);
  const bodyType = asString(body?.__type) ?? asString(body?.code) ?? asString(body?.type);
  // `__type` may be namespaced (`com.amazon.coral.service#ExpiredTokenException`)
  const type = errorTypeOf(headers) ?? bodyType?.split('#').pop();
  return { status, headers, message, code: bedrockErrorCode(type, message) };
}
