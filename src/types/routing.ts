import type { ProviderAdapter, ProviderTarget } from '../providers/shared/provider-adapter.js';
import type { Deployment } from './deployment.js';

/**
 * A deployment ready to be called: the adapter that speaks its provider, the target derived for it, and
 * the limits that apply to it (from its `svc_params`, else the router's settings). Built once per config.
 */
export interface Endpoint {
  readonly deployment: Deployment;
  readonly adapter: ProviderAdapter;
  readonly target: ProviderTarget;
  /** Milliseconds; a request's own `timeout` overrides each. */
  readonly timeoutMs: number;
  readonly streamTimeoutMs: number;
  readonly firstTokenTimeoutMs: number | undefined;
  readonly streamTotalTimeoutMs: number;
  /** How long a failure cools it (ms); 0 never cools it. */
  readonly cooldownMs: number;
  /** Its `max_parallel_requests` (or what stands for it), undefined when unlimited. */
  readonly parallelLimit: number | undefined;
}

/** Deployments of one `order` value; `deployments[i]` is `endpoints[i].deployment`. */
export interface Tier {
  readonly endpoints: readonly Endpoint[];
  readonly deployments: readonly Deployment[];
}

/** A model group: its endpoints, and the same split into `order` tiers (lowest first). */
export interface ModelGroup {
  readonly name: string;
  readonly endpoints: readonly Endpoint[];
  /** By `order`, ascending; deployments without `order` form the last tier. */
  readonly tiers: readonly Tier[];
  /** Its `model_id`s, for one read of their shared state. */
  readonly ids: readonly string[];
  /**
   * Whether a failing deployment of it may ever be cooled: its calls could go elsewhere (another
   * deployment, or fallbacks configured for the group).
   */
  readonly coolable: boolean;
  /**
   * Which of its deployments may serve a call charged to a budget (priced, or `allow_unpriced`): `all`,
   * `some` or `none`.
   */
  readonly billable: 'all' | 'some' | 'none';
}

/**
 * What a deployment served in the current wall-clock minute, across every router on the store:
 * requests sent (counted when the router picks it) and tokens used (counted when a call reports its
 * usage). Compared with its `rpm` and `tpm`.
 */
export interface MinuteUsage {
  readonly rpm: number;
  readonly tpm: number;
}
