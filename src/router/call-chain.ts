import type { EventEmitter } from 'eventemitter3';
import { ContentPolicyViolationError, RateLimitError } from '../errors/classes.js';
import { RouterError } from '../errors/router-error.js';
import { type FallbackSettings, fallbacksFor } from '../policies/fallback-policy.js';
import type { CallContext, Routed } from './call-context.js';
import type { DeploymentRegistry, ModelGroup } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';
import type { GroupRunner } from './group-runner.js';
import type { RouterEvents } from './router-events.js';

/** The pre-call checks of one call on one group: which endpoints may serve it. */
type Admits = (endpoint: Endpoint) => boolean;

export interface ChainParts {
  runner: GroupRunner;
  registry(): DeploymentRegistry;
  fallbacks(): FallbackSettings & { maxFallbacks: number };
  /** Pre-call checks for a group and request, or undefined when they are off. */
  admits(group: ModelGroup, request: Readonly<Record<string, unknown>>): Admits | undefined | Promise<Admits>;
  emitter: EventEmitter<RouterEvents>;
}

/**
 * Runs a call on its model group and, when that fails, on the fallback groups the error's class
 * allows (spec 10.1: retries in the group, next order tier, then fallbacks). Each group is tried at
 * most once per call, so a fallback never restarts the cycle of a group it came from. The final error
 * carries every attempt's error in `attempts`.
 */
export class CallChain {
  constructor(private readonly parts: ChainParts) {}

  async run<T>(group: ModelGroup, ctx: CallContext<T>): Promise<Routed<T>> {
    let error: RouterError;
    try {
      if (ctx.request.mock_testing_rate_limit_error === true) throw this.#mockRateLimit(group);
      return await this.#run(group, ctx);
    } catch (err) {
      if (ctx.signal?.aborted || !RouterError.isInstance(err)) throw err;
      error = err;
    }
    const settings = this.parts.fallbacks();
    const requestFallbacks = Array.isArray(ctx.request.fallbacks)
      ? (ctx.request.fallbacks as string[])
      : undefined;
    const visited = new Set([group.name]);
    const refusal = ContentPolicyViolationError.isInstance(error);
    let from = group.name;
    let hops = 0;
    for (const name of fallbacksFor(group.name, error, settings, requestFallbacks)) {
      if (hops >= settings.maxFallbacks || visited.has(name)) continue;
      const next = this.parts.registry().group(name);
      if (!next) continue;
      visited.add(name);
      hops += 1;
      this.#emitFallback(from, name, error);
      try {
        return await this.#run(next, ctx);
      } catch (err) {
        if (ctx.signal?.aborted || !RouterError.isInstance(err)) throw err;
        error = err;
        from = name;
        // a refusal met on a general fallback is not routed around either
        if (!refusal && ContentPolicyViolationError.isInstance(error)) break;
      }
    }
    error.attempts = ctx.failures.filter((f) => f !== error);
    throw error;
  }

  // pre-call checks may load the tokenizer; without them there is nothing to wait for
  #admits(
    group: ModelGroup,
    request: Readonly<Record<string, unknown>>,
  ): Admits | undefined | Promise<Admits> {
    return this.parts.admits(group, request);
  }

  async #run<T>(group: ModelGroup, ctx: CallContext<T>): Promise<Routed<T>> {
    const admits = this.#admits(group, ctx.request);
    return this.parts.runner.run(group, ctx, admits instanceof Promise ? await admits : admits);
  }

  #mockRateLimit(group: ModelGroup): RateLimitError {
    return new RateLimitError(
      `mock_testing_rate_limit_error is set: ${group.name} answered as if rate limited (no provider was called)`,
      { model: group.name },
    );
  }

  #emitFallback(from: string, to: string, error: RouterError): void {
    if (this.parts.emitter.listenerCount('fallback') === 0) return;
    try {
      this.parts.emitter.emit('fallback', { from, to, error });
    } catch {
      // a listener's failure never changes the call
    }
  }
}
