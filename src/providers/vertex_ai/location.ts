import { BadRequestError } from '../../errors/classes.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/** Vertex AI's location when neither svc_params nor the environment names one. */
export const DEFAULT_VERTEX_LOCATION = 'us-central1';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** `vertex_location` from svc_params, else `VERTEXAI_LOCATION`, else `us-central1`. */
export function vertexLocation(target: ProviderTarget): string {
  return text(target.params.vertex_location) ?? text(target.env.VERTEXAI_LOCATION) ?? DEFAULT_VERTEX_LOCATION;
}

/** `vertex_project` from svc_params, else `VERTEXAI_PROJECT`; a BadRequestError naming both when absent. */
export function vertexProject(target: ProviderTarget): string {
  const project = text(target.params.vertex_project) ?? text(target.env.VERTEXAI_PROJECT);
  if (project) return project;
  throw new BadRequestError(
    `${target.provider}/${target.model}: no Google Cloud project; set \`vertex_project\` in svc_params ` +
      '(or the VERTEXAI_PROJECT environment variable)',
    { provider: target.provider, model: target.model, modelId: target.modelId },
  );
}

/**
 * The deployment's `api_base`, else Vertex AI's regional host (`https://{location}-aiplatform.googleapis.com`,
 * or `https://aiplatform.googleapis.com` for location `global`).
 */
export function vertexApiBase(target: ProviderTarget): string {
  if (target.apiBase) return target.apiBase;
  const location = vertexLocation(target);
  return location === 'global'
    ? 'https://aiplatform.googleapis.com'
    : `https://${location}-aiplatform.googleapis.com`;
}

/**
 * `{api_base}/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`
 * (CONTRACT 5.1); `method` carries any query string (`streamGenerateContent?alt=sse`).
 */
export function vertexModelUrl(
  target: ProviderTarget,
  publisher: 'google' | 'anthropic',
  method: string,
): string {
  return (
    `${vertexApiBase(target)}/v1/projects/${vertexProject(target)}/locations/${vertexLocation(target)}` +
    `/publishers/${publisher}/models/${target.model}:${method}`
  );
}
