import { BadRequestError } from '../../errors/classes.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/**
 * The api-version used when neither svc_params `api_version` nor env `AZURE_API_VERSION` sets one: the
 * latest dated GA version of Azure OpenAI's data-plane inference API. It takes `stream_options`
 * (streams ask for the usage chunk); versions before 2024-09-01-preview do not.
 */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** The api-version of a deployment: svc_params `api_version`, else env `AZURE_API_VERSION`, else the default. */
export function azureApiVersion(target: ProviderTarget, env: NodeJS.ProcessEnv = target.env): string {
  return target.apiVersion ?? env.AZURE_API_VERSION ?? AZURE_DEFAULT_API_VERSION;
}

/**
 * `{api_base}/openai/deployments/{deployment}/{path}?api-version={api_version}` (CONTRACT 5.1), the
 * deployment being the model name after `azure/`. Azure has no default endpoint: a deployment without
 * `api_base` fails with a BadRequestError that names it, before anything is sent.
 */
export function azureUrl(target: ProviderTarget, path: string, env: NodeJS.ProcessEnv = target.env): string {
  if (!target.apiBase) {
    throw new BadRequestError(
      `azure/${target.model} has no \`api_base\`: set svc_params.api_base to the resource endpoint ` +
        '(https://<resource>.openai.azure.com)',
      { provider: target.provider, model: target.model, modelId: target.modelId },
    );
  }
  const version = encodeURIComponent(azureApiVersion(target, env));
  return `${target.apiBase}/openai/deployments/${encodeURIComponent(target.model)}/${path}?api-version=${version}`;
}
