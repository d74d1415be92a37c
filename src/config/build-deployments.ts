import { defineMaskedInspect } from '../callbacks/mask-key.js';
import type { UserCostMap } from '../cost/cost-map-file.js';
import { deploymentCost } from '../cost/deployment-cost.js';
import { ConfigError } from '../errors/config-error.js';
import { missingApiKey } from '../providers/build-target.js';
import { BUILT_IN_PROVIDERS, type ProviderRegistry } from '../providers/registry.js';
import { closestMatch, didYouMean } from '../shared/did-you-mean.js';
import type { Deployment, DeploymentConfig, DeploymentEntry } from '../types/index.js';
import { deploymentHash } from './model-id.js';
import {
  DEPLOYMENT_KEYS,
  deploymentSchema,
  deploymentSchemaFor,
  KNOWN_PASS_THROUGH_KEYS,
  ROUTER_SVC_PARAM_KEYS,
} from './model-list-schema.js';
import { resolveEnvReferences, UNSAFE_KEYS } from './resolve-env.js';
import { ANY_PROVIDER, anyProviderWildcard, withStandInModel } from './wildcard-template.js';
import { zodProblems } from './zod-problems.js';

function looksLikeTypo(key: string): string | undefined {
  if (KNOWN_PASS_THROUGH_KEYS.has(key) || ROUTER_SVC_PARAM_KEYS.includes(key) || key.length < 5)
    return undefined;
  return closestMatch(key, ROUTER_SVC_PARAM_KEYS);
}

/** Splits `<provider>/<model>` (already validated) into the provider name and the provider's model name. */
export function splitModel(
  model: string,
  providers: ProviderRegistry = BUILT_IN_PROVIDERS,
): { provider: Deployment['provider']; providerModel: string } {
  const slash = model.indexOf('/');
  return {
    provider: providers.providerOfPrefix(model.slice(0, slash))!,
    providerModel: model.slice(slash + 1),
  };
}

/** The model-list checks for a provider registry: its prefixes decide which `<provider>/` are known. */
export interface ModelListRules {
  providers: ProviderRegistry;
  schema: typeof deploymentSchema;
  /** The router's `model_cost_map` file, over the catalog's prices. */
  costMap: UserCostMap | undefined;
}

/** The rules for a registry: built once per config (the schema lists its prefixes). */
export function modelListRules(
  providers: ProviderRegistry = BUILT_IN_PROVIDERS,
  costMap?: UserCostMap,
): ModelListRules {
  const schema =
    providers === BUILT_IN_PROVIDERS ? deploymentSchema : deploymentSchemaFor(providers.prefixes());
  return { providers, schema: schema as typeof deploymentSchema, costMap };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A shallow copy without `__proto__`, `constructor` and `prototype` keys. */
function withoutUnsafeKeys<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(key)) out[key] = v;
  return out as T;
}

/**
 * The element of `router.modelList`: the entry as the user wrote it (`os.environ/` references
 * unresolved, so `JSON.stringify` gives it back), with `model_info.id` set, and credentials masked
 * when inspected (`console.log(router.modelList)` prints `api_key: '****abcd'`).
 */
function entryOf(written: DeploymentConfig, id: string): DeploymentEntry {
  const svcParams = withoutUnsafeKeys(written.svc_params);
  defineMaskedInspect(svcParams);
  const entry: DeploymentEntry = {
    model_name: written.model_name,
    svc_params: svcParams,
    model_info: Object.freeze({ ...withoutUnsafeKeys(written.model_info ?? {}), id }),
  };
  defineMaskedInspect(entry);
  return Object.freeze(entry);
}

/**
 * A LiteLLM entry (`litellm_params`, no `svc_params`): the unknown key's "did you mean `svc_params`?"
 * says it all, so the missing `svc_params` is not reported too.
 */
function isRenamedSvcParams(input: Record<string, unknown>, path: readonly PropertyKey[]): boolean {
  return (
    path.length === 1 && path[0] === 'svc_params' && !('svc_params' in input) && 'litellm_params' in input
  );
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
  rules: ModelListRules = modelListRules(),
): { deployment?: Deployment; problems: string[] } {
  if (!isObject(input)) {
    return { problems: [`${where}: expected an object with model_name and svc_params`] };
  }
  const { value, problems, references, failed } = resolveEnvReferences(input, where, env);
  const anyProvider = anyProviderWildcard(value);
  const parsed = rules.schema.safeParse(anyProvider ? withStandInModel(value) : value);
  if (!parsed.success) {
    problems.push(
      ...zodProblems(parsed.error, value, {
        prefix: where,
        knownKeys: (path) => (path.length === 0 ? DEPLOYMENT_KEYS : ROUTER_SVC_PARAM_KEYS),
        noun: 'key',
        references,
        ignore: (path) => failed(path) || isRenamedSvcParams(input, path),
      }),
    );
  }
  const svcParams = (value as { svc_params?: unknown }).svc_params;
  for (const key of isObject(svcParams) ? Object.keys(svcParams) : []) {
    const typo = looksLikeTypo(key);
    if (typo) problems.push(`unknown key \`${key}\` in \`${where}.svc_params\`${didYouMean(key, [typo])}`);
  }
  if (!parsed.success || problems.length > 0) return { problems };

  const written = input as unknown as DeploymentConfig;
  const resolved = parsed.data;
  const id = resolved.model_info?.id ?? deploymentHash(written.svc_params);
  const params = {
    ...defaults,
    ...resolved.svc_params,
    ...(anyProvider && { model: (value as { svc_params: { model: string } }).svc_params.model }),
  } as Deployment['params'];
  const entry = entryOf(written, id);
  const { provider, providerModel } = anyProvider
    ? { provider: ANY_PROVIDER, providerModel: (value as { svc_params: { model: string } }).svc_params.model }
    : splitModel(resolved.svc_params.model, rules.providers);
  const info = entry.model_info;
  return {
    problems,
    deployment: Object.freeze({
      id,
      modelName: resolved.model_name,
      provider,
      providerModel,
      params: Object.freeze(params),
      info,
      entry,
      cost: deploymentCost({ provider, providerModel, params, info }, rules.costMap),
    }),
  };
}

/** A deployment that would call its provider's default endpoint with no key: named with where to set one. */
function keyProblem(
  deployment: Deployment,
  where: string,
  env: NodeJS.ProcessEnv,
  providers: ProviderRegistry,
): string | undefined {
  const adapter = providers.adapterFor(deployment.provider);
  const missing = adapter && missingApiKey(deployment, adapter, env);
  return missing && `${where} (model_name \`${deployment.modelName}\`): ${missing}`;
}

/**
 * Validates the whole model list at construction. Throws ConfigError naming every bad entry by index and
 * field, every unset `os.environ/` variable by name, every duplicated `model_id`, and every deployment
 * that would call its provider's own endpoint without an api key.
 */
export function buildDeployments(
  modelList: unknown,
  defaults: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
  providers: ProviderRegistry = BUILT_IN_PROVIDERS,
  costMap?: UserCostMap,
): Deployment[] {
  const rules = modelListRules(providers, costMap);
  if (!Array.isArray(modelList))
    throw new ConfigError('model list', ['model_list: expected an array of deployments']);
  const problems: string[] = [];
  const deployments: Deployment[] = [];
  const seen = new Map<string, number>();
  modelList.forEach((item, index) => {
    const where = `model_list[${index}]`;
    const result = buildDeployment(item, where, defaults, env, rules);
    problems.push(...result.problems);
    if (!result.deployment) return;
    const earlier = seen.get(result.deployment.id);
    if (earlier !== undefined) {
      problems.push(
        `${where}: same model_id as model_list[${earlier}] (identical svc_params); give one a model_info.id`,
      );
      return;
    }
    const noKey = keyProblem(result.deployment, where, env, providers);
    if (noKey) problems.push(noKey);
    seen.set(result.deployment.id, index);
    deployments.push(result.deployment);
  });
  if (problems.length > 0) throw new ConfigError('model list', problems);
  return deployments;
}
