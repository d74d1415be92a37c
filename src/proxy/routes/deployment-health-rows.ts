import type { DeploymentHealth } from '../../router/deployment-health.js';
import type { DeploymentMetrics } from '../../router/observability/router-metrics.js';

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
  /** Attempts that ended since the router started (aborted ones say nothing of it and are left out). */
  requests: number;
  /** Those of them that failed. */
  failures: number;
  /** failures / requests, 0 before any. */
  error_rate: number;
  /** Mean duration of its successful attempts since start; null before one. */
  latency_ms: number | null;
}

const sum = (counts: Record<string, number>): number =>
  Object.values(counts).reduce((total, n) => total + n, 0);

/**
 * Joins the router's live state of each deployment (`getDeployments()`) with its running counts
 * (`metrics()`), by deployment id. A deployment without counts yet reads as never called.
 */
export function deploymentHealthRows(
  deployments: readonly DeploymentHealth[],
  metrics: readonly DeploymentMetrics[],
): DeploymentHealthRow[] {
  const countsById = new Map(metrics.map((m) => [m.model_id, m]));
  return deployments.map((d) => {
    const counts = countsById.get(d.model_id);
    const requests = counts ? sum(counts.requests) : 0;
    const failures = counts ? sum(counts.errors) : 0;
    return {
      model_group: d.model_name,
      deployment_id: d.model_id,
      provider: d.provider,
      model: d.model,
      state: d.state,
      cooling_until: d.cooling_until === null ? null : new Date(d.cooling_until).toISOString(),
      in_flight: d.in_flight,
      requests,
      failures,
      error_rate: requests === 0 ? 0 : Math.min(1, failures / requests),
      latency_ms: counts && counts.latency_count > 0 ? counts.latency_ms_sum / counts.latency_count : null,
    };
  });
}
