import { ConcurrencyLimiter } from '../../../src/checks/concurrency-limiter.js';
import { CooldownTracker } from '../../../src/cooldown/cooldown-tracker.js';
import {
  AuthenticationError,
  InternalServerError,
  NoDeploymentsAvailableError,
} from '../../../src/errors/classes.js';
import { buildTarget } from '../../../src/providers/build-target.js';
import { adapterFor } from '../../../src/providers/registry.js';
import {
  type Call,
  type Step as CallStep,
  firstStep,
  type Handler,
  newHistory,
  type Routed,
} from '../../../src/router/call.js';
import { type AttemptOutcome, OutcomeChannel } from '../../../src/router/outcomes.js';
import { MemoryStore } from '../../../src/stores/memory-store.js';
import type { Store } from '../../../src/stores/store.js';
import type { RoutingStrategy } from '../../../src/strategies/strategy.js';
import { testDeployment } from '../../../src/testing/index.js';
import type { Endpoint, ModelGroup, SvcParams } from '../../../src/types/index.js';

/** The model group most tests route in. */
export const GROUP = 'gpt-4o';
/** The fixed time of the fake clock. */
export const NOW = 1_000_000;

export interface EndpointInput {
  /** Its model group. @default GROUP */
  group?: string;
  /** `max_parallel_requests`. */
  parallelLimit?: number;
  /** @default 5_000 */
  cooldownMs?: number;
  svc_params?: Partial<SvcParams>;
}

/** An endpoint as the registry builds one, for a deployment with `model_info.id` = `id`. */
export function endpoint(id: string, input: EndpointInput = {}): Endpoint {
  const deployment = testDeployment({
    id,
    model_name: input.group ?? GROUP,
    svc_params: { model: 'openai/gpt-4o', ...input.svc_params },
  });
  const adapter = adapterFor(deployment.provider)!;
  return {
    deployment,
    adapter,
    target: buildTarget(deployment, adapter, {}),
    timeoutMs: 60_000,
    streamTimeoutMs: 60_000,
    firstTokenTimeoutMs: undefined,
    streamTotalTimeoutMs: 1_800_000,
    cooldownMs: input.cooldownMs ?? 5_000,
    parallelLimit: input.parallelLimit,
  };
}

/** A model group of these tiers (lowest `order` first), named after its endpoints' group. */
export function group(...tiers: Endpoint[][]): ModelGroup {
  const endpoints = tiers.flat();
  return {
    name: endpoints[0]!.deployment.modelName,
    endpoints,
    tiers: tiers.map((tier) => ({ endpoints: tier, deployments: tier.map((e) => e.deployment) })),
    ids: endpoints.map((e) => e.deployment.id),
    coolable: true,
    billable: 'all',
  };
}

/** A call on a group as the router starts one; its `operation` answers `answer from <id>`. */
export function fakeCall(on: ModelGroup, overrides: Partial<Call<string>> = {}): Call<string> {
  return {
    kind: 'chat',
    model: on.name,
    group: on,
    request: { model: on.name, messages: [{ role: 'user', content: 'hello' }] },
    stream: false,
    signal: undefined,
    allowModel: undefined,
    asyncEntry: true,
    pricedOnly: false,
    onAbortedAttempt: undefined,
    numRetries: undefined,
    deadline: NOW + 60_000,
    startMs: NOW,
    operation: async (e) => `answer from ${e.deployment.id}`,
    body: {},
    timeoutMs: undefined,
    dropParams: false,
    mockResponse: undefined,
    history: newHistory(),
    ...overrides,
  };
}

/** A handler driven as the router drives the call path: from the call's first step, with these decisions. */
export type Driven = <T>(call: Call<T>, step?: Partial<CallStep>) => Promise<Routed<T>>;

/** Drives `handler` from each call's first step (`step` overrides what the layers above decided). */
export function drive(handler: Handler): Driven {
  return (call, step) => handler(call, { ...firstStep(call), ...step });
}

/** A clock that stands still unless moved. */
export function fakeClock(start = NOW): { now: () => number; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
  };
}

/** An outcome channel that keeps what was reported. */
export function recordingOutcomes(): { channel: OutcomeChannel; reported: AttemptOutcome[] } {
  const channel = new OutcomeChannel();
  const reported: AttemptOutcome[] = [];
  channel.listen((o) => reported.push(o));
  return { channel, reported };
}

/** A tracker over a store of its own (or the one given, as another router's would be). */
export function tracker(store?: Store): CooldownTracker {
  return new CooldownTracker({
    store: store ?? new MemoryStore(),
    shared: store !== undefined,
    onCooldown() {},
  });
}

/** Cools an endpoint's deployment now (a 401 cools at once). */
export function cool(on: CooldownTracker, e: Endpoint, now = NOW): void {
  const { id, modelName } = e.deployment;
  const cooled = on.failure(
    { id, group: modelName, cooldownMs: e.cooldownMs, coolable: true },
    new AuthenticationError('invalid api key', { modelId: id }),
    now,
    {
      policy: { allowedFails: 0, rateLimitAllowedFails: undefined, contentPolicyAllowedFails: undefined },
      disabled: false,
    },
  );
  if (!cooled) throw new Error(`could not cool ${id}`);
}

/** The real pieces the select layer and its neighbours share. */
export function selectWorld(): { tracker: CooldownTracker; limiter: ConcurrencyLimiter } {
  return { tracker: tracker(), limiter: new ConcurrencyLimiter() };
}

/** The router's "no deployments" error, shortened. */
export function noDeployments(on: ModelGroup): NoDeploymentsAvailableError {
  return new NoDeploymentsAvailableError(`No deployments available for ${on.name}`, { model: on.name });
}

/** A 500 from a deployment. */
export function serverError(id: string, message = `${id} failed`): InternalServerError {
  return new InternalServerError(message, { provider: 'openai', model: 'gpt-4o', modelId: id });
}

/** A strategy that picks the candidate with this id (else nothing) and keeps the candidates it saw. */
export function pickingStrategy(id?: string): RoutingStrategy & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    name: 'picking',
    seen,
    select(candidates) {
      seen.push(candidates.map((d) => d.id));
      return id === undefined ? candidates[0] : candidates.find((d) => d.id === id);
    },
  };
}

/** What a fake `next` saw of the call and its step when it was called. */
export interface Seen {
  group: string;
  tier: string[];
  endpoint: string | undefined;
  backoff: { id: string; waitMs: number } | undefined;
  excluded: string[];
  admits: boolean;
  /** The step as handed down. */
  step: CallStep;
}

/** The Routed a fake `next` answers with. */
export function routed<T>(call: Call<T>, step: CallStep, result: T): Routed<T> {
  return {
    result,
    endpoint: step.endpoint ?? step.tier.endpoints[0]!,
    attempts: call.history.attempts,
    startMs: NOW,
    firstMs: NOW,
    settle() {},
  };
}

export type Step = Error | string | ((call: Call<unknown>, step: CallStep) => Error | string);

/**
 * A `next` handler that answers its calls with these steps in turn (an error is thrown, a string is
 * the result; past the end it answers `ok`), and records what each call looked like.
 */
export function scriptedNext(...steps: Step[]): { next: Handler; seen: Seen[] } {
  const seen: Seen[] = [];
  const next: Handler = async <T>(call: Call<T>, at: CallStep) => {
    const { backoff } = at;
    seen.push({
      group: at.group.name,
      tier: at.tier.deployments.map((d) => d.id),
      endpoint: at.endpoint?.deployment.id,
      backoff: backoff && { id: backoff.id, waitMs: backoff.waitMs },
      excluded: [...(call.history.excluded ?? [])],
      admits: at.admits !== undefined,
      step: at,
    });
    const step = steps[seen.length - 1] ?? 'ok';
    const answer = typeof step === 'function' ? step(call as Call<unknown>, at) : step;
    if (answer instanceof Error) throw answer;
    return routed(call, at, answer as T);
  };
  return { next, seen };
}
