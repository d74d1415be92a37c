import type { Deployment } from '../types/index.js';

/**
 * A deployment's region: its `region_name`, else `eu` when `vertex_location` or `aws_region_name`
 * starts with `europe-` or `eu-` (CONTRACT 5.3). Undefined when unknown.
 */
export function regionOf(deployment: Deployment): string | undefined {
  const { params } = deployment;
  if (params.region_name) return params.region_name;
  for (const location of [params.vertex_location, params.aws_region_name]) {
    if (typeof location === 'string' && /^(europe-|eu-)/.test(location)) return 'eu';
  }
  return undefined;
}

/** The region a request asks for: `allowed_model_region`, or the same key in `metadata`. */
export function requestedRegion(request: Readonly<Record<string, unknown>>): string | undefined {
  const direct = request.allowed_model_region;
  if (typeof direct === 'string') return direct;
  const metadata = request.metadata as Record<string, unknown> | undefined;
  return typeof metadata?.allowed_model_region === 'string' ? metadata.allowed_model_region : undefined;
}
