import type { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import type { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { DeploymentEntry, Endpoint } from '../types/index.js';

/** One deployment's live state, as `router.getDeployments()` reports it. */
export interface DeploymentHealth {
  model_name: string;
  model_id: string;
  /** Provider name (`openai`, `anthropic`, ...). */
  provider: string;
  /** The provider's model name, without the provider prefix (`gpt-4o`). */
  model: string;
  api_base: string | null;
  /** `cooling`: no calls until `cooling_until`; `half_open`: one trial call at a time until one succeeds. */
  state: 'ok' | 'cooling' | 'half_open';
  /** When the cooldown ends (ms since the epoch), while cooling. */
  cooling_until: number | null;
  /** Calls on it now (this process). */
  in_flight: number;
  /** Its concurrency limit, null when none. */
  max_parallel_requests: number | null;
  /** This minute's calls and failed calls, and their ratio (0 with no calls). */
  calls_this_minute: number;
  failures_this_minute: number;
  error_rate: number;
  /**
   * Whether it has a price (its own, `model_cost_map`'s or the catalog's). An unpriced deployment's
   * calls cost 0, and calls charged to a budget skip it unless it sets `model_info.allow_unpriced`.
   */
  priced: boolean;
}

/** The health view of one deployment. Pure given the tracker's and limiter's state. */
export function deploymentHealth(
  entry: DeploymentEntry,
  endpoint: Endpoint | undefined,
  tracker: CooldownTracker,
  limiter: ConcurrencyLimiter,
  now: number,
): DeploymentHealth {
  const id = entry.model_info.id;
  const state = tracker.stateOf(id, now);
  return {
    model_name: entry.model_name,
    model_id: id,
    provider: endpoint?.deployment.provider ?? entry.svc_params.model.split('/')[0]!,
    model: endpoint?.target.model ?? entry.svc_params.model.slice(entry.svc_params.model.indexOf('/') + 1),
    api_base: endpoint?.target.apiBase ?? null,
    state: state.state,
    cooling_until: state.until ?? null,
    in_flight: limiter.inFlight(id),
    max_parallel_requests: endpoint?.parallelLimit ?? null,
    calls_this_minute: state.calls,
    failures_this_minute: state.failures,
    error_rate: state.calls === 0 ? 0 : state.failures / state.calls,
    priced: endpoint?.deployment.cost.priced ?? false,
  };
}
