import type { DeploymentHealth, DeploymentMetrics } from '@svc/router';

/** One deployment as `GET /deployment/health` shows it: no api_key, no api_base. */
export interface DeploymentHealthRow {
  model_group: string;
  deployment_id: string;
  provider: string;
  model: string;
  state: DeploymentHealth['state'];
  /** When its cooldown ends, ISO; null unless cooling. */
  cooling_until: string | null;
  in_flight: number;
  /**
   * Calls this minute, as the cooldown tracker counts them: what decides whether it cools down now (a
   * count since start would hide a deployment that began failing a minute ago behind its history).
   */
  requests: number;
  /** Those of them that failed. */
  failures: number;
  /** failures / requests, 0 with no call this minute. */
  error_rate: number;
  /** Mean duration of its successful attempts since start; null before one. */
  latency_ms: number | null;
  /** Whether it has a price: an unpriced deployment's calls cost 0 (docs/cost.md). */
  priced: boolean;
}

/**
 * Joins the router's live state of each deployment (`getDeployments()`: state, this minute's calls)
 * with its latency since start (`metrics()`), by deployment id.
 */
export function deploymentHealthRows(
  deployments: readonly DeploymentHealth[],
  metrics: readonly DeploymentMetrics[],
): DeploymentHealthRow[] {
  const countsById = new Map(metrics.map((m) => [m.model_id, m]));
  return deployments.map((d) => {
    const counts = countsById.get(d.model_id);
    return {
      model_group: d.model_name,
      deployment_id: d.model_id,
      provider: d.provider,
      model: d.model,
      state: d.state,
      cooling_until: d.cooling_until === null ? null : new Date(d.cooling_until).toISOString(),
      in_flight: d.in_flight,
      requests: d.calls_this_minute,
      failures: d.failures_this_minute,
      error_rate: d.error_rate,
      latency_ms: counts && counts.latency_count > 0 ? counts.latency_ms_sum / counts.latency_count : null,
      priced: d.priced,
    };
  });
}
