import type { ProviderAdapter, ProviderTarget } from '../providers/shared/provider-adapter.js';
import type { Deployment } from '../types/index.js';

/** A deployment with the adapter that speaks its provider and the target derived for it. */
export interface Endpoint {
  readonly deployment: Deployment;
  readonly adapter: ProviderAdapter;
  readonly target: ProviderTarget;
  /** Default timeouts (ms) from svc_params and settings; a request's own `timeout` overrides them. */
  readonly timeoutMs: number;
  readonly streamTimeoutMs: number;
}
