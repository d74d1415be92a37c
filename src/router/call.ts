import type { CacheKind } from '../cache/cache-key.js';
import { RouterError } from '../errors/router-error.js';
import type { CallOptions } from '../providers/shared/provider-adapter.js';
import type { CallSignal } from '../shared/call-signal.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { Endpoint, ModelGroup, Tier, Usage } from '../types/index.js';
import type { AbortedAttempt } from './call-control.js';
import type { CallTrace } from './observability/call-trace.js';

/** The pre-call checks of one call on one group: which endpoints may serve it. */
export type Admits = (endpoint: Endpoint) => boolean;

/**
 * What the call has done so far: shared by every runner of the call (a hedge's race included), so
 * nothing is copied or merged back. Only the attempt layer writes it.
 */
export interface History {
  /** Upstream attempts made so far. */
  attempts: number;
  /** Every failed attempt's error, oldest first. */
  readonly failures: RouterError[];
  /** Deployments that failed this call (`metadata._failover_excluded_ids`). */
  excluded: Set<string> | undefined;
  /** Deployments that timed out this call: never tried again by it. */
  timedOut: Set<string> | undefined;
  /** The endpoint of the latest attempt: what a call that failed names. */
  endpoint: Endpoint | undefined;
}

/**
 * The facts of one call, fixed when it starts: no layer changes them. What the layers decide on the
 * way down (the group tried, its tier, a backoff, the endpoint) is handed to the next as a `Step`; what
 * the attempts did is kept in `history`.
 */
export interface Call<T> {
  /** What is asked: a chat, embeddings, a text completion or images. */
  readonly kind: CacheKind;
  /** The model the caller asked for. */
  readonly model: string;
  /** The group the request names (a fallback is a `Step`'s group, not this). */
  readonly group: ModelGroup;
  /** The caller's request as given (router fields included). */
  readonly request: Readonly<Record<string, unknown>>;
  readonly stream: boolean;
  /** The caller's signal (a hedge's runner has its own: `Step.signal`). */
  readonly signal: CallSignal | undefined;
  /** The caller's `CallControl.allowModel`: which groups the call may move to. */
  readonly allowModel: ((model: string) => boolean) | undefined;
  /** Called through an `a*` method: weighted failover applies only there. */
  readonly asyncEntry: boolean;
  /** `CallControl.pricedOnly`: only deployments with a price (or `allow_unpriced`) may serve it. */
  readonly pricedOnly: boolean;
  /** `CallControl.onAbortedAttempt`: told of each attempt under way when `signal` aborted. */
  readonly onAbortedAttempt: ((attempt: AbortedAttempt) => void) | undefined;
  /** The request's own `num_retries`, overriding the router's. */
  readonly numRetries: number | undefined;
  /** When every wait of this call (backoff, Retry-After, a free slot) must be over, on the router's clock. */
  readonly deadline: number;
  /** When the caller made the call, on the router's clock: what alerts measure durations from. */
  readonly startMs: number;
  /** The executor's operation this call runs on the endpoint each attempt chose (`execute` calls it). */
  readonly operation: Operation<T>;
  /** What is sent upstream: the request without the router's own fields. */
  readonly body: object;
  /** The request's own `timeout` (ms), over each endpoint's. */
  readonly timeoutMs: number | undefined;
  /** `drop_params`: the request's, else the router's. */
  readonly dropParams: boolean;
  /** The request's `mock_response`, over a deployment's. */
  readonly mockResponse: string | undefined;
  /** What the attempts did so far (the attempt layer writes it). */
  readonly history: History;
  /**
   * The endpoints this call may use at all, in every group it tries; unset: any. A stream's
   * continuation (`stream_resume`) may use only those that support assistant prefill.
   */
  readonly eligible?: Admits | undefined;
  /**
   * Set for a call whose request body can be sent once (a streamed upload): true once an attempt has
   * started sending it. After that no further attempt is made (no retry, fallback, hedge or mirror):
   * the call fails with that attempt's error.
   */
  readonly spent?: (() => boolean) | undefined;
  /** This call continues a broken stream (`stream_resume`): its fallbacks are told as part of that. */
  readonly resumed?: boolean;
}

/**
 * What the layers above decided for the rest of the way down, handed to `next` as a value: a layer
 * that decides something passes `{ ...step, what: it }`, one that does not passes the step it got.
 */
export interface Step {
  /** The group being tried (the requested one, then fallbacks). */
  readonly group: ModelGroup;
  readonly tier: Tier;
  /** Pre-call checks (and tag, price filters) for the current group, when on. */
  readonly admits: Admits | undefined;
  /** The strategy choosing in the current group (set by select). */
  readonly strategy: RoutingStrategy | undefined;
  /** Planned by the retry layer: how long to wait before trying a deployment again. */
  readonly backoff: Backoff | undefined;
  /** The endpoint chosen for this attempt (set by select). */
  readonly endpoint: Endpoint | undefined;
  /** The call's span, set by the trace layer when an OpenTelemetry SDK records it. */
  readonly trace: CallTrace | undefined;
  /** This attempt's signal: the caller's, or a hedge runner's own (aborted when another wins). */
  readonly signal: CallSignal | undefined;
  /** This attempt races an earlier one (`hedge_after`): it runs now or not at all, never waits. */
  readonly hedge: boolean;
}

/**
 * A step made by `new`: the steps and the history a call keeps while its stream is read are made by
 * constructors, not literals, so that V8 cannot decide to allocate every call's in the old generation
 * (src/providers/shared/chunk-objects.ts says why that costs). Layers that add a decision spread a
 * step (`{ ...step, backoff }`), which makes a plain copy.
 */
class StepOf implements Step {
  // declared, not class fields (or parameter properties, emitted as class fields): the constructor
  // defines each once, in this order
  declare readonly group: ModelGroup;
  declare readonly tier: Tier;
  declare readonly admits: Admits | undefined;
  declare readonly strategy: RoutingStrategy | undefined;
  declare readonly backoff: Backoff | undefined;
  declare readonly endpoint: Endpoint | undefined;
  declare readonly trace: CallTrace | undefined;
  declare readonly signal: CallSignal | undefined;
  declare readonly hedge: boolean;

  constructor(
    group: ModelGroup,
    tier: Tier,
    admits: Admits | undefined,
    strategy: RoutingStrategy | undefined,
    backoff: Backoff | undefined,
    endpoint: Endpoint | undefined,
    trace: CallTrace | undefined,
    signal: CallSignal | undefined,
    hedge: boolean,
  ) {
    this.group = group;
    this.tier = tier;
    this.admits = admits;
    this.strategy = strategy;
    this.backoff = backoff;
    this.endpoint = endpoint;
    this.trace = trace;
    this.signal = signal;
    this.hedge = hedge;
  }
}

/** The step a call starts with: its requested group, that group's first tier, nothing decided. */
export function firstStep(call: Call<unknown>): Step {
  const { group } = call;
  return new StepOf(
    group,
    group.tiers[0]!,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    call.signal,
    false,
  );
}

/** `step` with the endpoint the select layer chose with `strategy` (and any planned backoff spent). */
export function chosenStep(step: Step, strategy: RoutingStrategy, endpoint: Endpoint): Step {
  return new StepOf(
    step.group,
    step.tier,
    step.admits,
    strategy,
    undefined,
    endpoint,
    step.trace,
    step.signal,
    step.hedge,
  );
}

/** A call's history, made by `new` (see `StepOf`). */
class CallHistory implements History {
  attempts = 0;
  // Array.of, not `[]`: an array literal has an allocation site too
  readonly failures: RouterError[] = Array.of<RouterError>();
  excluded: Set<string> | undefined = undefined;
  timedOut: Set<string> | undefined = undefined;
  endpoint: Endpoint | undefined = undefined;
}

/** A new, empty history. */
export function newHistory(): History {
  return new CallHistory();
}

/** One of the executor's operations (chat, a chat stream, embeddings, ...) as the execute layer runs it. */
export type Operation<T> = (
  endpoint: Endpoint,
  body: object,
  options: CallOptions,
  mock: string | undefined,
) => Promise<T>;

/** A wait the retry layer planned before a deployment that just failed is tried again. */
export interface Backoff {
  id: string;
  waitMs: number;
  /** The failure it follows: what the call fails with when the wait cannot fit its deadline. */
  error: RouterError;
  /**
   * The deployment is cooling for a 429's `retry-after` and nothing else can take the call: when no
   * candidate is left, wait for it rather than fail (CONTRACT 6.2). Otherwise the wait applies only when
   * the next pick is this same deployment.
   */
  cooling?: boolean;
}

/** How an attempt that produced a result ended, told once (for streams: when the stream ends). */
export interface Settlement {
  /** The stream failed after it opened. */
  error?: RouterError | undefined;
  /** The caller aborted or left early: says nothing about the deployment. */
  aborted?: boolean;
  usage?: Partial<Usage> | undefined;
  /** The result given to the caller, for logger callbacks. */
  response?: unknown;
  /** `response_cost` of the call. */
  cost?: number;
}

/** The result of a routed call and the endpoint that produced it. */
export interface Routed<T> {
  result: T;
  endpoint: Endpoint;
  /** Upstream attempts made, 1 when the first one served. */
  attempts: number;
  /** When the serving attempt started (ms). */
  startMs: number;
  /** When its result (for streams: its first chunk) arrived (ms). */
  firstMs: number;
  /** Served from the response cache: no upstream call, no cost. */
  cacheHit?: boolean;
  /** Reports how the attempt ended (frees its slot, feeds cooldowns, strategies and events). Once. */
  settle(settlement: Settlement): void;
}

/** What a routed call's record and span say of it: everything but its result. */
export type RoutedFacts = Pick<Routed<unknown>, 'endpoint' | 'attempts' | 'firstMs' | 'cacheHit'>;

/**
 * The facts of `routed` without its result: what a settle wrapper keeps, since a stream settles long
 * after its first chunk, which the result holds.
 */
export function routedFacts(routed: Routed<unknown>): RoutedFacts {
  const { endpoint, attempts, firstMs, cacheHit } = routed;
  return { endpoint, attempts, firstMs, cacheHit };
}

/**
 * Runs a call from some layer down. It fails by rejecting, never by throwing: layers (retry, the
 * router's failure bookkeeping) attach their handlers to the promise `next` returns.
 */
export type Handler = <T>(call: Call<T>, step: Step) => Promise<Routed<T>>;

/** A composed call path as the router runs it: from a call's first step. */
export type CallPath = <T>(call: Call<T>) => Promise<Routed<T>>;

/**
 * Wraps the rest of the call path: each concern is one layer (`(next) => handler`), composed once per
 * config. An async layer writes `return await next(call, step)`: an async function that returns a promise
 * as is adopts it through an extra job and promise, a cost every call would pay.
 */
export type Layer = (next: Handler) => Handler;

/** Composes layers outermost first: `compose([a, b], end)` is `a(b(end))`. */
export function compose(layers: readonly Layer[], end: Handler): Handler {
  let handler = end;
  for (let i = layers.length - 1; i >= 0; i--) handler = layers[i]!(handler);
  return handler;
}

/** The call's final error, given the failures before it as `attempts` (when it has none yet). */
export function withAttempts(call: Call<unknown>, err: unknown): unknown {
  if (RouterError.isInstance(err) && err.attempts.length === 0)
    err.attempts = call.history.failures.filter((f) => f !== err);
  return err;
}
