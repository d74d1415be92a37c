import { BadRequestError, PermissionDeniedError } from '../errors/classes.js';
import type { CallOptions } from '../providers/shared/provider-adapter.js';
import type { CallSignal } from '../shared/call-signal.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { Endpoint, ModelGroup, RouterRequestFields } from '../types/index.js';
import { type Call, type History, newHistory, type Operation } from './call.js';
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
  checkAllowed(config, start.allowModel, start.request.model);
  return new StartedCall(start, config, groupFor(config, start.request.model), now);
}

/**
 * A call's facts as a class, not an object literal: V8 tracks a literal's allocation site and, once
 * most of a site's objects live through a young-generation collection (a call lives as long as its
 * stream), allocates them in the old generation from then on ("pretenuring"). A call then costs a
 * full collection to free, and every young object stored into it a remembered-set entry. Objects made
 * by `new` have no allocation site, so V8 cannot make that decision for them.
 */
class StartedCall<B extends RoutableRequest, T> implements Call<T> {
  // declared, not class fields: the constructor defines each once, in this order
  declare readonly kind: RequestKind;
  declare readonly model: string;
  declare readonly group: ModelGroup;
  declare readonly request: B;
  declare readonly stream: boolean;
  declare readonly signal: CallSignal | undefined;
  declare readonly allowModel: ((model: string) => boolean) | undefined;
  declare readonly asyncEntry: boolean;
  declare readonly pricedOnly: boolean;
  declare readonly onAbortedAttempt: ((attempt: AbortedAttempt) => void) | undefined;
  declare readonly eligible: ((endpoint: Endpoint) => boolean) | undefined;
  declare readonly spent: (() => boolean) | undefined;
  declare readonly numRetries: number | undefined;
  declare readonly deadline: number;
  declare readonly startMs: number;
  declare readonly operation: Operation<T>;
  declare readonly body: object;
  declare readonly timeoutMs: number | undefined;
  declare readonly dropParams: boolean;
  declare readonly mockResponse: string | undefined;
  declare readonly history: History;

  constructor(start: CallStart<B, T>, config: RouterConfig, group: ModelGroup, now: number) {
    const { request, stream } = start;
    const { settings } = config;
    const timeoutMs = request.timeout === undefined ? undefined : request.timeout * 1000;
    this.kind = start.kind;
    this.model = request.model;
    this.group = group;
    this.request = request;
    this.stream = stream;
    this.signal = start.signal;
    this.allowModel = allowsWildcards(config, start.allowModel);
    this.asyncEntry = start.asyncEntry;
    this.pricedOnly = start.pricedOnly;
    this.onAbortedAttempt = start.onAbortedAttempt;
    this.eligible = start.eligible;
    this.spent = start.spent;
    this.numRetries = request.num_retries;
    this.deadline =
      now + (timeoutMs ?? (stream ? (settings.stream_timeout ?? settings.timeout) : settings.timeout) * 1000);
    this.startMs = now;
    // the body was built for this operation: it runs it with nothing else
    this.operation = start.run as Operation<T>;
    this.body = providerBody(request);
    this.timeoutMs = timeoutMs;
    this.dropParams = request.drop_params ?? settings.drop_params;
    this.mockResponse = request.mock_response;
    this.history = newHistory();
  }
}
