import { APIConnectionError, BadRequestError, InternalServerError } from '../../errors/classes.js';
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
 * The APIConnectionError for a stream that ended before the event that marks its end, so a cut stream
 * is never taken for a finished one. `terminal` names that event as the provider spells it.
 *
 * @example throw streamEndedEarly(target, 'message_stop');
 * // APIConnectionError: anthropic/claude-sonnet-4-5 stream ended before its terminal event (message_stop)
 */
export function streamEndedEarly(target: ProviderTarget, terminal: string): APIConnectionError {
  return new APIConnectionError(
    `${target.provider}/${target.model} stream ended before its terminal event (${terminal})`,
    errorOptions(target),
  );
}

/**
 * The InternalServerError for a stream event whose payload is not a JSON object. `what` names the
 * event in the message (`an event`, `a frame`, `a contentBlockDelta event`).
 *
 * @example throw streamedNonJson(target, 'an event');
 * // InternalServerError: anthropic/claude-sonnet-4-5 streamed an event that is not JSON
 */
export function streamedNonJson(target: ProviderTarget, what: string, cause?: unknown): InternalServerError {
  return new InternalServerError(`${target.provider}/${target.model} streamed ${what} that is not JSON`, {
    ...errorOptions(target),
    cause,
  });
}
