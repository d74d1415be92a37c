import { isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { createProviderRegistry } from '../providers/registry.js';
import type { ProviderAdapter } from '../providers/shared/provider-adapter.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { DeploymentConfig } from '../types/index.js';
import { buildDeployments } from './build-deployments.js';
import { withFilePathsFrom } from './callback-setting.js';
import { parseSettings } from './parse-settings.js';
import { parseWithEnv } from './parse-with-env.js';
import { readConfigSource } from './read-config-source.js';
import type { RouterSettings } from './settings-schema.js';
import { svcSettingsAsRouterSettings } from './svc-settings.js';

/** The sections of a config file (CONTRACT 1 and 4). */
export const CONFIG_SECTIONS = [
  'model_list',
  'router_settings',
  'general_settings',
  'svc_settings',
  'environment_variables',
] as const;

/** A validated config file. */
export interface LoadedConfig<G = Record<string, unknown>> {
  /** The file's absolute path; undefined for an object. */
  file: string | undefined;
  /** What relative paths resolve against: the file's directory, else the working directory. */
  dir: string;
  modelList: DeploymentConfig[];
  /** `svc_settings` mapped onto router settings, then `router_settings` over them (what the Router gets). */
  routerSettings: RouterSettings;
  /** `svc_settings` as written (already folded into `routerSettings`). */
  svcSettings: Readonly<Record<string, unknown>>;
  generalSettings: G;
  /** The environment with `environment_variables` over it: what `os.environ/` references read. */
  env: NodeJS.ProcessEnv;
}

export interface LoadConfigOptions<G extends z.ZodType> {
  /** @default process.env (never modified) */
  env?: NodeJS.ProcessEnv;
  /** Validates `general_settings` (the proxy's); without it they are kept as an object. */
  generalSettings?: G;
  /** Provider adapters of your own (the Router's `providers`): their prefixes are valid in `svc_params.model`. */
  providers?: readonly ProviderAdapter[];
}

/**
 * Reads and validates a config file (YAML or JSON) or object: the `model_list`, `router_settings`,
 * `svc_settings`, `general_settings` and `environment_variables` the proxy and `Router.fromConfig` read.
 * Throws one ConfigError naming the file and listing every problem with its path, all at once.
 * LiteLLM names (`litellm_params`, `litellm_settings`, any `litellm_x` with an `svc_x`) get a
 * "did you mean" for their `svc_` names.
 *
 * @example
 * const { modelList, routerSettings, env } = loadConfigFile('./config.yaml');
 */
export function loadConfigFile<G extends z.ZodType = z.ZodType<Record<string, unknown>>>(
  source: string | object,
  options: LoadConfigOptions<G> = {},
): LoadedConfig<z.output<G>> {
  const { raw, file, dir } = readConfigSource(source);
  const what = file ? `config file ${file}` : 'config';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(what, ['expected a mapping with model_list and the other sections']);
  }
  const config = raw as Record<string, unknown>;
  const problems: string[] = [...sectionProblems(config)];
  const env = withVariables(options.env ?? process.env, config.environment_variables, problems);
  const svcSettings = objectSection(config, 'svc_settings', problems);
  const router = objectSection(config, 'router_settings', problems);
  // a bad svc_settings value is reported once, under its own name, not again as the router setting
  let fromSvc: Record<string, unknown> = {};
  collect(problems, 'svc_settings', () => {
    fromSvc = svcSettingsAsRouterSettings(svcSettings, env);
  });
  const routerSettings = withCostMapPath({ ...fromSvc, ...router } as RouterSettings, dir);
  if (routerSettings.callbacks !== undefined)
    routerSettings.callbacks = withFilePathsFrom(
      dir,
      routerSettings.callbacks,
    ) as RouterSettings['callbacks'];
  let defaults: Record<string, unknown> = {};
  collect(problems, 'router_settings', () => {
    defaults = parseSettings(routerSettings, env).default_svc_params as Record<string, unknown>;
  });
  const modelList = config.model_list ?? [];
  const registry = options.providers?.length ? createProviderRegistry(options.providers) : undefined;
  collect(problems, '', () => buildDeployments(modelList, defaults, env, registry));
  let generalSettings: unknown = objectSection(config, 'general_settings', problems);
  if (options.generalSettings) {
    const schema = options.generalSettings;
    collect(problems, 'general_settings', () => {
      generalSettings = parseWithEnv(schema, generalSettings, {
        what: 'general_settings',
        names: Object.keys((schema as unknown as { shape?: object }).shape ?? {}),
        env,
      }).data;
    });
  }
  if (problems.length > 0) throw new ConfigError(what, problems);
  return {
    file,
    dir,
    modelList: modelList as DeploymentConfig[],
    routerSettings,
    svcSettings,
    generalSettings: generalSettings as z.output<G>,
    env,
  };
}

/** `model_cost_map` read from the config file's folder when relative (env references are left to resolve). */
function withCostMapPath(settings: RouterSettings, dir: string): RouterSettings {
  const path = settings.model_cost_map;
  if (typeof path !== 'string' || path === '' || isAbsolute(path) || path.startsWith('os.environ/'))
    return settings;
  return { ...settings, model_cost_map: resolve(dir, path) };
}

/** Unknown top-level keys (`litellm_settings` is pointed at `svc_settings` by didYouMean). */
function sectionProblems(config: Record<string, unknown>): string[] {
  return Object.keys(config)
    .filter((key) => !(CONFIG_SECTIONS as readonly string[]).includes(key))
    .map((key) => `unknown section \`${key}\`${didYouMean(key, CONFIG_SECTIONS)}`);
}

function objectSection(
  config: Record<string, unknown>,
  name: string,
  problems: string[],
): Record<string, unknown> {
  const value = config[name];
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  problems.push(`${name}: expected a mapping`);
  return {};
}

/** A new environment: the given one with `environment_variables` over it (never process.env itself). */
function withVariables(base: NodeJS.ProcessEnv, variables: unknown, problems: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (variables === undefined || variables === null) return env;
  if (typeof variables !== 'object' || Array.isArray(variables)) {
    problems.push('environment_variables: expected a mapping of NAME: value');
    return env;
  }
  for (const [name, value] of Object.entries(variables)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      env[name] = String(value);
    else problems.push(`environment_variables.${name}: expected a string, number or boolean`);
  }
  return env;
}

/** Runs a validation that throws ConfigError and keeps its problems, under `section`. */
function collect(problems: string[], section: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems.map((p) => underSection(section, p)));
  }
}

function underSection(section: string, problem: string): string {
  if (section === '') return problem;
  return /^[A-Za-z_][\w.[\]]*: /.test(problem) ? `${section}.${problem}` : `${section}: ${problem}`;
}
