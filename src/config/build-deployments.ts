import {
  type Deployment,
  type DeploymentConfig,
  type DeploymentEntry,
  PROVIDER_PREFIXES,
} from '../types/index.js';
import { ConfigError } from './config-error.js';
import { closestMatch, didYouMean } from './did-you-mean.js';
import { deploymentHash } from './model-id.js';
import {
  DEPLOYMENT_KEYS,
  deploymentSchema,
  KNOWN_PASS_THROUGH_KEYS,
  ROUTER_SVC_PARAM_KEYS,
} from './model-list-schema.js';
import { resolveEnvReferences } from './resolve-env.js';
import { zodProblems } from './zod-problems.js';

function looksLikeTypo(key: string): string | undefined {
  if (KNOWN_PASS_THROUGH_KEYS.has(key) || ROUTER_SVC_PARAM_KEYS.includes(key) || key.length < 5)
    return undefined;
  return closestMatch(key, ROUTER_SVC_PARAM_KEYS);
}

/** Splits `<provider>/<model>` (already validated) into the provider name and the provider's model name. */
export function splitModel(model: string): { provider: Deployment['provider']; providerModel: string } {
  const slash = model.indexOf('/');
  return { provider: PROVIDER_PREFIXES[model.slice(0, slash)]!, providerModel: model.slice(slash + 1) };
}

/**
 * Validates one model-list entry and derives its Deployment. Returns the problems instead of throwing so
 * that a list reports all of them at once.
 */
export function buildDeployment(
  input: unknown,
  where: string,
  defaults: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
): { deployment?: Deployment; problems: string[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return { problems: [`${where}: expected an object with model_name and svc_params`] };
  }
  const written = input as DeploymentConfig;
  const { value, problems } = resolveEnvReferences(written, where, env);
  const parsed = deploymentSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(
      ...zodProblems(parsed.error, value, {
        prefix: where,
        knownKeys: (path) => (path.length === 0 ? DEPLOYMENT_KEYS : ROUTER_SVC_PARAM_KEYS),
        noun: 'key',
      }),
    );
  }
  for (const key of Object.keys(written.svc_params ?? {})) {
    const typo = looksLikeTypo(key);
    if (typo) problems.push(`unknown key \`${key}\` in \`${where}.svc_params\`${didYouMean(key, [typo])}`);
  }
  if (!parsed.success || problems.length > 0) return { problems };

  const resolved = parsed.data;
  const id = resolved.model_info?.id ?? deploymentHash(written.svc_params as Record<string, unknown>);
  const params = { ...defaults, ...resolved.svc_params } as Deployment['params'];
  const entry: DeploymentEntry = Object.freeze({
    model_name: written.model_name,
    svc_params: written.svc_params,
    model_info: Object.freeze({ ...written.model_info, id }),
  });
  const { provider, providerModel } = splitModel(resolved.svc_params.model);
  return {
    problems,
    deployment: Object.freeze({
      id,
      modelName: resolved.model_name,
      provider,
      providerModel,
      params: Object.freeze(params),
      info: entry.model_info,
      entry,
    }),
  };
}

/**
 * Validates the whole model list at construction. Throws ConfigError naming every bad entry by index and
 * field, every unset `os.environ/` variable by name, and every duplicated `model_id`.
 */
export function buildDeployments(
  modelList: unknown,
  defaults: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): Deployment[] {
  if (!Array.isArray(modelList))
    throw new ConfigError('model list', ['model_list: expected an array of deployments']);
  const problems: string[] = [];
  const deployments: Deployment[] = [];
  const seen = new Map<string, number>();
  modelList.forEach((item, index) => {
    const result = buildDeployment(item, `model_list[${index}]`, defaults, env);
    problems.push(...result.problems);
    if (!result.deployment) return;
    const earlier = seen.get(result.deployment.id);
    if (earlier !== undefined) {
      problems.push(
        `model_list[${index}]: same model_id as model_list[${earlier}] (identical svc_params); give one a model_info.id`,
      );
      return;
    }
    seen.set(result.deployment.id, index);
    deployments.push(result.deployment);
  });
  if (problems.length > 0) throw new ConfigError('model list', problems);
  return deployments;
}
