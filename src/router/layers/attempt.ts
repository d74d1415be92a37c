import { TimeoutError } from '../../errors/classes.js';
import { errorFromNetwork } from '../../errors/map-error.js';
import { isRequestFault } from '../../errors/request-fault.js';
import type { RouterError } from '../../errors/router-error.js';
import type { Endpoint } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Settlement } from '../call.js';
import type { AttemptOutcome, OutcomeChannel } from '../outcomes.js';

export interface AttemptDeps {
  outcomes: OutcomeChannel;
  now(): number;
}

function asRouterError(err: unknown, endpoint: Endpoint): RouterError {
  const { target } = endpoint;
  return errorFromNetwork(err, { provider: target.provider, model: target.model, modelId: target.modelId });
}

/**
 * Runs one attempt on the chosen endpoint (whose slot the select layer claimed) and reports how it
 * ended on the outcome channel, exactly once: a failure at once, a result when the caller settles it
 * (for streams, when the stream ends). A caller's abort and a request's own fault report `aborted`:
 * they say nothing about the deployment. This is the innermost layer; it ignores `next`.
 */
export function attemptLayer(deps: AttemptDeps): Layer {
  const { outcomes, now } = deps;
  const attempt = async <T>(call: Call<T>): Promise<Routed<T>> => {
    const endpoint = call.endpoint!;
    const { group, strategy, request, stream } = call;
    const startMs = now();
    call.attempts += 1;
    const base = { endpoint, group, strategy, request, stream, startMs };
    let result: T;
    try {
      result = await call.run(endpoint);
    } catch (err) {
      if (call.signal?.aborted || isRequestFault(err)) {
        outcomes.report({ ...base, kind: 'aborted', endMs: now(), attempts: call.attempts });
        throw call.signal?.aborted ? (call.signal.reason ?? err) : err;
      }
      const error = asRouterError(err, endpoint);
      const id = endpoint.deployment.id;
      call.failures.push(error);
      call.excluded ??= new Set();
      call.excluded.add(id);
      if (TimeoutError.isInstance(error)) {
        call.timedOut ??= new Set();
        call.timedOut.add(id);
      }
      outcomes.report({
        ...base,
        kind: 'failure',
        endMs: now(),
        error,
        attempts: call.attempts,
        excluded: call.excluded,
      });
      throw error;
    }
    const firstMs = now();
    const attempts = call.attempts;
    let settled = false;
    const settle = (s: Settlement): void => {
      if (settled) return;
      settled = true;
      const outcome: AttemptOutcome = {
        ...base,
        kind: s.error ? 'failure' : s.aborted ? 'aborted' : 'success',
        endMs: now(),
        firstMs,
        error: s.error,
        usage: s.usage,
        attempts,
        excluded: call.excluded,
        response: s.response,
        cost: s.cost,
      };
      outcomes.report(outcome);
    };
    return { result, endpoint, attempts, startMs, firstMs, settle };
  };
  return (_next: Handler) => attempt;
}
