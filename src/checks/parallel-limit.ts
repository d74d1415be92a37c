import type { Deployment } from '../types/index.js';

/**
 * A deployment's concurrency limit (CONTRACT 5.3, spec 8): its `max_parallel_requests`, else the
 * router's `default_max_parallel_requests`, else its `rpm`, else `tpm / 1000 / 6` (at least 1); none of
 * these means no limit.
 */
export function parallelLimitOf(
  deployment: Deployment,
  routerDefault: number | undefined,
): number | undefined {
  const { params } = deployment;
  if (params.max_parallel_requests !== undefined) return params.max_parallel_requests;
  if (routerDefault !== undefined) return routerDefault;
  if (params.rpm !== undefined) return Math.max(1, Math.floor(params.rpm));
  if (params.tpm !== undefined) return Math.max(1, Math.floor(params.tpm / 1000 / 6));
  return undefined;
}
