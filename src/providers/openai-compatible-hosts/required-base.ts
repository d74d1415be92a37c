import { BadRequestError } from '../../errors/classes.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { errorOptions } from '../shared/provider-errors.js';
import type { OpenAICompatibleHost } from './host.js';

/**
 * `{api_base}/{path}` for a host with no endpoint of its own (a vLLM server is wherever its owner runs
 * it). A deployment without `api_base` fails with a BadRequestError that names it and the field; the
 * adapter's `validate` runs this at Router construction, so such a deployment never gets that far.
 */
export function requiredBaseUrl(host: OpenAICompatibleHost) {
  const example = host.apiBaseExample ? ` (e.g. ${host.apiBaseExample})` : '';
  return (target: ProviderTarget, path: string): string => {
    if (!target.apiBase) {
      throw new BadRequestError(
        `${host.name}/${target.model} has no \`api_base\`: set svc_params.api_base to the server's ` +
          `OpenAI-compatible base URL${example}; ${host.name}/ has no default endpoint`,
        errorOptions(target),
      );
    }
    return `${target.apiBase}/${path}`;
  };
}
