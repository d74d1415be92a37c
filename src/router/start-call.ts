import { BadRequestError, PermissionDeniedError } from '../errors/classes.js';
import type { CallOptions } from '../providers/shared/provider-adapter.js';
import type { CallSignal } from '../shared/call-signal.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { Endpoint, ModelGroup, RouterRequestFields } from '../types/index.js';
import { type Call, newHistory, type Operation } from './call.js';
import type { AbortedAttempt } from './call-control.js';
import { providerBody } from './request-fields.js';
import type { RouterConfig } from './router-config.js';
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
  signal: CallSignal | undefined;
  /** `CallControl.allowModel`. */
  allowModel: ((model: string) => boolean) | undefined;
  stream: boolean;
  /** Called through an `a*` method (weighted failover applies). */
  asyncEntry: boolean;
  /** `CallControl.pricedOnly`. */
  pricedOnly: boolean;
  /** `CallControl.onAbortedAttempt`. */
  onAbortedAttempt: ((attempt: AbortedAttempt) => void) | undefined;
  run: Run<B, T>;
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
 * Whether `allowModel` lets a call reach `model`: it allows the name, or the wildcard pattern
 * (`openai/*`) that serves it when no listed group has that name.
 */
export function allowedModel(
  config: RouterConfig,
  allowModel: (model: string) => boolean,
  model: string,
): boolean {
  if (allowModel(model)) return true;
  const pattern = config.registry.wildcardFor(model);
  return pattern !== undefined && allowModel(pattern);
}

/** `allowModel` over names and the wildcard patterns serving them, for the fallbacks a call may make. */
function allowsWildcards(
  config: RouterConfig,
  allowModel: ((model: string) => boolean) | undefined,
): ((model: string) => boolean) | undefined {
  if (allowModel === undefined || !config.registry.hasWildcards) return allowModel;
  return (model) => allowedModel(config, allowModel, model);
}

/**
 * Refuses a requested model the caller's `allowModel` does not allow, before it is looked up (so an
 * unknown model it refuses is not named with the groups there are).
 * @throws PermissionDeniedError naming the model.
 */
function checkAllowed(
  config: RouterConfig,
  allowModel: ((model: string) => boolean) | undefined,
  model: string,
): void {
  if (allowModel === undefined || allowedModel(config, allowModel, model)) return;
  throw new PermissionDeniedError(
    `Model \`${model}\` is not allowed for this call (CallControl.allowModel).`,
    {
      model,
    },
  );
}

/**
 * A new call on the group its request names, under this config: the body sent upstream (router
 * fields removed once) and the deadline every wait must fit in (the request's `timeout`, else the
 * router's, from now).
 */
export function startCall<B extends RoutableRequest, T>(
  start: CallStart<B, T>,
  config: RouterConfig,
  now: number,
): Call<T> {
  const { request, stream } = start;
  const { settings } = config;
  checkAllowed(config, start.allowModel, request.model);
  const group = groupFor(config, request.model);
  const timeoutMs = request.timeout === undefined ? undefined : request.timeout * 1000;
  const startMs = now;
  const budgetMs =
    timeoutMs ?? (stream ? (settings.stream_timeout ?? settings.timeout) : settings.timeout) * 1000;
  return {
    kind: start.kind,
    model: request.model,
    group,
    request,
    stream,
    signal: start.signal,
    allowModel: allowsWildcards(config, start.allowModel),
    asyncEntry: start.asyncEntry,
    pricedOnly: start.pricedOnly,
    onAbortedAttempt: start.onAbortedAttempt,
    ...(start.eligible && { eligible: start.eligible }),
    ...(start.spent && { spent: start.spent }),
    numRetries: request.num_retries,
    deadline: startMs + budgetMs,
    startMs,
    // the body was built for this operation: it runs it with nothing else
    operation: start.run as Operation<T>,
    body: providerBody(request),
    timeoutMs,
    dropParams: request.drop_params ?? settings.drop_params,
    mockResponse: request.mock_response,
    history: newHistory(),
  };
}
