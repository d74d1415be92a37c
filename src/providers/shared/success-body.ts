import { InternalServerError } from '../../errors/classes.js';
import { errorFromResponse, statusForCode } from '../../errors/map-error.js';
import type { RouterError } from '../../errors/router-error.js';
import { errorContextOf } from './error-context.js';
import { asRecord } from './json.js';
import type { ProviderAdapter, ProviderTarget } from './provider-adapter.js';
import { errorOptions } from './provider-errors.js';

/**
 * The list a successful answer must carry under `key` (`data`, `choices`): a 200 without it, or with
 * an empty one, is a failure of the deployment, not an empty success.
 *
 * @throws InternalServerError (retryable) naming what is missing, e.g.
 * `openai/text-embedding-3-small answered without \`data\``.
 */
export function requiredList(body: Record<string, unknown>, key: string, target: ProviderTarget): unknown[] {
  const value = body[key];
  if (Array.isArray(value) && value.length > 0) return value;
  const problem = Array.isArray(value) ? `an empty \`${key}\`` : `without \`${key}\``;
  return throwMissing(target, problem);
}

/** Throws the retryable InternalServerError for a 200 lacking what a success holds (`without \`data\``). */
export function throwMissing(target: ProviderTarget, problem: string): never {
  throw new InternalServerError(
    `${target.provider}/${target.model} answered ${problem}`,
    errorOptions(target),
  );
}

// OpenRouter and Google put the HTTP status in `error.code`
function statusIn(error: unknown): number | undefined {
  const code = asRecord(error)?.code;
  return typeof code === 'number' && code >= 400 && code <= 599 ? code : undefined;
}

/** Whether a JSON body is an error: `{"error": {...}}`, `{"error": "text"}`, or AWS's `{"__type": ...}`. */
function isErrorBody(body: Record<string, unknown> | undefined): body is Record<string, unknown> {
  if (!body) return false;
  const error = body.error;
  return (
    asRecord(error) !== undefined ||
    (typeof error === 'string' && error !== '') ||
    typeof body.__type === 'string'
  );
}

/**
 * The contract error of a 2xx JSON answer whose body is an error object (`{"error": {...}}`,
 * `{"error": "text"}`, AWS's `{"__type", "message"}`), as some providers and gateways send: read by the adapter's own `readError`,
 * its class picked from the code it names (a 200 says nothing of the failure: `rate_limit_exceeded`
 * is a RateLimitError, an unknown code an InternalServerError). Undefined for any other body.
 */
export function errorInSuccessBody(
  json: unknown,
  adapter: ProviderAdapter,
  target: ProviderTarget,
  headers: Record<string, string | string[] | undefined>,
): RouterError | undefined {
  const body = asRecord(json);
  if (!isErrorBody(body)) return undefined;
  const stated = statusIn(body.error);
  const hint = stated ?? 500;
  const failure = adapter.readError(hint, JSON.stringify(json), headers);
  // a reader that chose a status (Google's invalid key is 401) keeps it; else the code decides
  const status =
    failure.status !== hint
      ? failure.status
      : (stated ?? statusForCode(failure.code, adapter.errorCodes) ?? 500);
  return errorFromResponse(
    { ...failure, status, message: `${failure.message} (an error body in a 2xx answer)` },
    errorContextOf(target),
    adapter.errorCodes,
  );
}
