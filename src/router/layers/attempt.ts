import { responseCost } from '../../cost/response-cost.js';
import { TimeoutError } from '../../errors/classes.js';
import { errorFromNetwork } from '../../errors/map-error.js';
import { isRequestFault } from '../../errors/request-fault.js';
import type { RouterError } from '../../errors/router-error.js';
import type { Endpoint } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Settlement, Step } from '../call.js';
import type { CallControl } from '../call-control.js';
import type { AttemptOutcome, OutcomeChannel } from '../outcomes.js';

export interface AttemptDeps {
  outcomes: OutcomeChannel;
  now(): number;
}

function asRouterError(err: unknown, endpoint: Endpoint): RouterError {
  const { target } = endpoint;
  return errorFromNetwork(err, { provider: target.provider, model: target.model, modelId: target.modelId });
}

/** Tells the caller's `onAbortedAttempt` of an attempt its abort ended; what it throws is ignored. */
function tellAborted(listener: NonNullable<CallControl['onAbortedAttempt']>, endpoint: Endpoint): void {
  const { deployment } = endpoint;
  try {
    listener({
      model_id: deployment.id,
      model_group: deployment.modelName,
      provider: deployment.provider,
      priced: deployment.cost.priced,
      costOf: (usage) => responseCost(deployment, usage),
    });
  } catch {
    // the call fails with its abort reason, whatever a listener does
  }
}

/**
 * Runs one attempt on the chosen endpoint (whose slot the select layer claimed) and reports how it
 * ended on the outcome channel, exactly once: a failure at once, a result when the caller settles it
 * (for streams, when the stream ends). A caller's abort and a request's own fault report `aborted`:
 * they say nothing about the deployment. Sits right above `execute`, which makes the attempt. The only writer of the call's `history`.
 */
export function attemptLayer(deps: AttemptDeps): Layer {
  const { outcomes, now } = deps;
  // one object shape for every outcome (a literal, not a spread: this runs once per call)
  const report = <T>(
    call: Call<T>,
    step: Step,
    kind: AttemptOutcome['kind'],
    endpoint: Endpoint,
    startMs: number,
    firstMs: number | undefined,
    attempts: number,
    s: Settlement | undefined,
    error: RouterError | undefined,
  ): void =>
    outcomes.report({
      kind,
      endpoint,
      group: step.group,
      strategy: step.strategy,
      request: call.request,
      stream: call.stream,
      startMs,
      endMs: now(),
      callStartMs: call.startMs,
      firstMs,
      error,
      usage: s?.usage,
      attempts,
      hedged: step.hedge,
      excluded: call.history.excluded,
      failures: call.history.failures,
      response: s?.response,
      cost: s?.cost,
      trace: step.trace,
    });
  // a failed attempt, reported: the error the call goes on with
  const failed = <T>(
    call: Call<T>,
    step: Step,
    endpoint: Endpoint,
    startMs: number,
    err: unknown,
    abortedBefore: boolean,
  ): unknown => {
    const { history } = call;
    const { signal } = step;
    if (signal?.aborted || isRequestFault(err)) {
      report(call, step, 'aborted', endpoint, startMs, undefined, history.attempts, undefined, undefined);
      // an attempt begun after the abort (a hedge timer's) sent nothing
      if (call.signal?.aborted && !abortedBefore && call.onAbortedAttempt)
        tellAborted(call.onAbortedAttempt, endpoint);
      return signal?.aborted ? (signal.reason ?? err) : err;
    }
    const error = asRouterError(err, endpoint);
    const id = endpoint.deployment.id;
    history.failures.push(error);
    history.excluded ??= new Set();
    history.excluded.add(id);
    if (TimeoutError.isInstance(error)) {
      history.timedOut ??= new Set();
      history.timedOut.add(id);
    }
    report(call, step, 'failure', endpoint, startMs, undefined, history.attempts, undefined, error);
    return error;
  };
  // an attempt that produced a result: reported once its caller settles it
  const served = <T>(call: Call<T>, step: Step, routed: Routed<T>): Routed<T> => {
    const { endpoint, startMs, firstMs, attempts } = routed;
    let settled = false;
    routed.settle = (s: Settlement): void => {
      if (settled) return;
      settled = true;
      const kind = s.error ? 'failure' : s.aborted ? 'aborted' : 'success';
      report(call, step, kind, endpoint, startMs, firstMs, attempts, s, s.error);
    };
    return routed;
  };
  return (next: Handler) =>
    <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const endpoint = step.endpoint!;
      const startMs = now();
      const abortedBefore = call.signal?.aborted === true;
      call.history.attempts += 1;
      call.history.endpoint = endpoint;
      let running: Promise<Routed<T>>;
      try {
        running = next(call, step);
      } catch (err) {
        running = Promise.reject(err);
      }
      // handlers on the attempt's promise rather than an async frame: every call runs this
      return running.then(
        (routed) => served(call, step, routed),
        (err: unknown) => {
          throw failed(call, step, endpoint, startMs, err, abortedBefore);
        },
      );
    };
}
