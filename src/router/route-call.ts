import { NoDeploymentsAvailableError } from '../errors/classes.js';
import { errorFromNetwork } from '../errors/map-error.js';
import type { RouterError } from '../errors/router-error.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { CallObserver } from './call-observer.js';
import type { ModelGroup, Tier } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';

/** One routed call: which group, the caller's request, and how to attempt it on one endpoint. */
export interface RouteSpec<T> {
  group: ModelGroup;
  /** The caller's request as given (router fields included). */
  request: Readonly<Record<string, unknown>>;
  stream: boolean;
  /** The caller's signal: an abort ends the call as is, without counting against any deployment. */
  signal?: AbortSignal | undefined;
  attempt(endpoint: Endpoint): Promise<T>;
}

/** The result of a routed call and the endpoint that produced it. */
export interface Routed<T> {
  result: T;
  endpoint: Endpoint;
  /** Upstream attempts made, 1 when the first one served. */
  attempts: number;
  /** When the serving attempt started (ms). */
  startMs: number;
}

/** Whether a failure says something about the deployment (so another one may serve) rather than the request. */
export function isDeploymentFailure(error: RouterError): boolean {
  return error.retryable || error.status === 401 || error.status === 403 || error.status === 404;
}

/**
 * Routes a call over a group's `order` tiers: the strategy picks in the lowest tier; a deployment
 * failure moves to the next tier. A request failure (bad request, context window, content policy)
 * ends the call at once. The final error carries every attempt's error in `attempts`.
 */
export class CallRouter {
  constructor(
    private readonly strategy: () => RoutingStrategy,
    private readonly observer: CallObserver,
    private readonly now: () => number,
  ) {}

  async route<T>(spec: RouteSpec<T>): Promise<Routed<T>> {
    const failures: RouterError[] = [];
    for (const tier of spec.group.tiers) {
      const endpoint = await this.#pick(tier, spec);
      if (!endpoint) continue;
      const startMs = this.now();
      try {
        const result = await spec.attempt(endpoint);
        return { result, endpoint, attempts: failures.length + 1, startMs };
      } catch (err) {
        if (spec.signal?.aborted) throw err;
        const { target } = endpoint;
        const error = errorFromNetwork(err, {
          provider: target.provider,
          model: target.model,
          modelId: target.modelId,
        });
        this.observer.failed(
          { request: spec.request, endpoint, stream: spec.stream, startMs, endMs: this.now() },
          error,
        );
        failures.push(error);
        if (!isDeploymentFailure(error)) break;
      }
    }
    throw this.#finalError(spec, failures);
  }

  async #pick<T>(tier: Tier, spec: RouteSpec<T>): Promise<Endpoint | undefined> {
    if (tier.endpoints.length === 1) return tier.endpoints[0];
    const chosen = await this.strategy().select(tier.deployments, {
      model: spec.group.name,
      request: spec.request,
    });
    return chosen && tier.endpoints[tier.deployments.indexOf(chosen)];
  }

  #finalError<T>(spec: RouteSpec<T>, failures: RouterError[]): RouterError {
    const last = failures.at(-1);
    if (!last) {
      return new NoDeploymentsAvailableError(
        `No deployments available for selected model, Try again in 0 seconds. Passed model=${spec.group.name}. pre-call-checks=false, allowed_model_region=n/a.`,
      );
    }
    last.attempts = failures.slice(0, -1);
    return last;
  }
}
