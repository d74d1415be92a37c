import { didYouMean } from '../config/did-you-mean.js';
import { BadRequestError, PermissionDeniedError } from '../errors/classes.js';
import type { CallOptions, CallWarning } from '../providers/shared/provider-adapter.js';
import type { Endpoint, ModelGroup, RouterRequestFields } from '../types/index.js';
import type { Call } from './call.js';
import { providerBody } from './request-fields.js';
import type { RouterConfig } from './router-config.js';
import type { RouterRuntime } from './runtime.js';
import type { RequestKind } from './validate-request.js';

/** A request the router can route: a model and the router's own fields. */
export type RoutableRequest = { model: string; [key: string]: unknown } & RouterRequestFields;

/** Runs one attempt of a request on one endpoint: one of the executor's operations. */
export type Run<B, T> = (
  endpoint: Endpoint,
  body: B,
  options: CallOptions,
  mock: string | undefined,
) => Promise<T>;

/** How a call is made: what is asked, on which path, with what. */
export interface CallStart<B, T> {
  kind: RequestKind;
  request: B;
  signal: AbortSignal | undefined;
  /** `CallControl.allowModel`. */
  allowModel: ((model: string) => boolean) | undefined;
  stream: boolean;
  /** Called through an `a*` method (weighted failover applies). */
  asyncEntry: boolean;
  /** `CallControl.pricedOnly`. */
  pricedOnly: boolean;
  run: Run<B, T>;
  onWarning: (warning: CallWarning) => void;
  /** The endpoints the call may use at all (a mode's deployments); unset: any. */
  eligible?: ((endpoint: Endpoint) => boolean) | undefined;
  /** `Call.spent`: for a body that can be sent once. */
  spent?: (() => boolean) | undefined;
}

/**
 * The model group a request names: a listed group, or (with pass-through on) `<provider>/<model>`.
 * @throws BadRequestError naming the model, the closest group and the groups there are.
 */
export function groupFor(config: RouterConfig, model: string): ModelGroup {
  const group = config.registry.group(model);
  if (group) return group;
  const names = config.registry.groupNames();
  const listed = names.length > 0 ? ` Model groups: ${names.slice(0, 20).join(', ')}.` : '';
  throw new BadRequestError(
    `Unknown model \`${model}\`${didYouMean(model, names)}.${listed}` +
      (config.settings.pass_through_all_models ? '' : ' (pass_through_all_models is off)'),
    { model },
  );
}

/**
 * Refuses a requested model the caller's `allowModel` does not allow, before it is looked up (so an
 * unknown model it refuses is not named with the groups there are).
 * @throws PermissionDeniedError naming the model.
 */
function checkAllowed(allowModel: ((model: string) => boolean) | undefined, model: string): void {
  if (allowModel === undefined || allowModel(model)) return;
  throw new PermissionDeniedError(
    `Model \`${model}\` is not allowed for this call (CallControl.allowModel).`,
    {
      model,
    },
  );
}

/**
 * A new call on the group its request names, under this config: the body sent upstream (router
 * fields removed once), the deadline every wait must fit in (the request's `timeout`, else the
 * router's, from now), and the per-attempt options each endpoint's limits give.
 */
export function startCall<B extends RoutableRequest, T>(
  start: CallStart<B, T>,
  config: RouterConfig,
  runtime: RouterRuntime,
): Call<T> {
  const { request, stream, run, onWarning } = start;
  const { settings } = config;
  checkAllowed(start.allowModel, request.model);
  const group = groupFor(config, request.model);
  const body = providerBody(request);
  const timeoutMs = request.timeout === undefined ? undefined : request.timeout * 1000;
  const dropParams = request.drop_params ?? settings.drop_params;
  const startMs = runtime.now();
  const budgetMs =
    timeoutMs ?? (stream ? (settings.stream_timeout ?? settings.timeout) : settings.timeout) * 1000;
  return {
    kind: start.kind,
    model: request.model,
    request,
    stream,
    signal: start.signal,
    allowModel: start.allowModel,
    asyncEntry: start.asyncEntry,
    pricedOnly: start.pricedOnly,
    ...(start.eligible && { eligible: start.eligible }),
    ...(start.spent && { spent: start.spent }),
    numRetries: request.num_retries,
    deadline: startMs + budgetMs,
    startMs,
    run: (endpoint, attemptSignal) =>
      run(
        endpoint,
        body,
        {
          timeoutMs: timeoutMs ?? endpoint.timeoutMs,
          streamTimeoutMs: timeoutMs ?? endpoint.streamTimeoutMs,
          firstTokenTimeoutMs: endpoint.firstTokenTimeoutMs,
          streamTotalTimeoutMs: endpoint.streamTotalTimeoutMs,
          maxResponseBytes: settings.max_response_bytes,
          signal: attemptSignal,
          dropParams,
          runtime: runtime.providers,
          onWarning,
          deadlines: runtime.deadlines,
        },
        request.mock_response ?? endpoint.deployment.params.mock_response,
      ),
    attempts: 0,
    failures: [],
    excluded: undefined,
    timedOut: undefined,
    hedge: false,
    group,
    tier: group.tiers[0]!,
    admits: undefined,
    strategy: undefined,
    backoff: undefined,
    endpoint: undefined,
    trace: undefined,
  };
}
