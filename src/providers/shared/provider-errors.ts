import { APIConnectionError, BadRequestError } from '../../errors/classes.js';
import type { ProviderTarget } from './provider-adapter.js';

/** The deployment an error is about, as every contract error class takes it. */
export interface TargetErrorOptions {
  provider: ProviderTarget['provider'];
  model: string;
  modelId: string;
}

/**
 * The `{ provider, model, modelId }` options of a contract error about `target`.
 *
 * @example new InternalServerError('no content', errorOptions(target))
 */
export function errorOptions(target: ProviderTarget): TargetErrorOptions {
  return { provider: target.provider, model: target.model, modelId: target.modelId };
}

/**
 * A BadRequestError whose message names the deployment first (`provider/model: message`). Returned,
 * not thrown, so callers write `throw badRequest(...)`.
 *
 * @example throw badRequest(target, 'a `tool` message needs `tool_call_id`');
 * // BadRequestError: anthropic/claude-sonnet-4-5: a `tool` message needs `tool_call_id`
 */
export function badRequest(target: ProviderTarget, message: string): BadRequestError {
  return new BadRequestError(`${target.provider}/${target.model}: ${message}`, errorOptions(target));
}

/**
 * The APIConnectionError for a stream whose body ended before its finish (the finish reason, or the
 * event that carries it), so a cut stream is never taken for a finished one. `missing` says what
 * never came, as the provider spells it.
 *
 * @example throw streamEndedEarly(target, 'no message_delta with stop_reason');
 * // APIConnectionError: anthropic/claude-sonnet-4-5 stream ended before it finished (no message_delta with stop_reason)
 */
export function streamEndedEarly(target: ProviderTarget, missing: string): APIConnectionError {
  return new APIConnectionError(
    `${target.provider}/${target.model} stream ended before it finished (${missing})`,
    errorOptions(target),
  );
}

/**
 * The error for an answer larger than `max_response_bytes`. A BadRequestError (400, not retried, no
 * cooldown): the size follows from the request (how many images, how long an answer), so another
 * deployment of the same model would send as much, and failing over would only spend another call.
 *
 * @example throw responseTooLarge(target, 1024);
 * // BadRequestError: openai/gpt-image-1 answered more than max_response_bytes (1024 bytes); ...
 */
export function responseTooLarge(target: ProviderTarget, limit: number): BadRequestError {
  return new BadRequestError(
    `${target.provider}/${target.model} answered more than max_response_bytes (${limit} bytes); ` +
      'another deployment of this model would answer as much, so it is not retried: ask for less, or raise max_response_bytes',
    errorOptions(target),
  );
}
