import { defineMaskedInspect } from '../callbacks/mask-key.js';
import { redisUrlWithoutPassword } from '../stores/redis-options.js';
import { ConfigError } from './config-error.js';
import { type EnvReference, referenceAt, resolveEnvReferences } from './resolve-env.js';
import { schemaKeysAt } from './schema-keys.js';
import {
  type ResolvedSettings,
  type RouterSettings,
  routerSettingsSchema,
  SETTING_NAMES,
} from './settings-schema.js';
import { zodProblems } from './zod-problems.js';

const nestedKeys = (path: readonly PropertyKey[]): readonly string[] =>
  schemaKeysAt(routerSettingsSchema, path, SETTING_NAMES);

// Strategy and logger objects are the user's live objects (with state and methods), not config data:
// they are passed on as given, never copied or searched for `os.environ/` references.
function isLiveObject(path: readonly PropertyKey[]): boolean {
  const [first, , third] = path;
  return (
    (path.length === 1 && first === 'routing_strategy') ||
    (path.length === 2 && first === 'callbacks') ||
    (path.length === 3 && first === 'routing_groups' && third === 'routing_strategy')
  );
}

const ENV_REFERENCES = Symbol('svc.envReferences');

/**
 * How a settings value is shown in a later problem (an unknown fallback group, ...): the value itself,
 * or `os.environ/NAME` when it was read from the environment, whose values are never printed.
 */
export function shownSetting(
  settings: ResolvedSettings,
  path: readonly PropertyKey[],
  value: string,
): string {
  const references = (settings as { [ENV_REFERENCES]?: readonly EnvReference[] })[ENV_REFERENCES] ?? [];
  const ref = referenceAt(references, path);
  return ref ? `os.environ/${ref.name}` : value;
}

/**
 * Validates router settings, resolving `os.environ/NAME` references. Throws ConfigError naming every bad
 * field; an unknown key gets the closest valid one ("unknown setting `num_retry`; did you mean
 * `num_retries`?"). A value read from the environment is named by its variable, never printed. Keys
 * `__proto__`, `constructor` and `prototype` are dropped wherever they appear; a cycle or nesting deeper
 * than 64 levels is a ConfigError naming the path.
 */
export function parseSettings(
  input: RouterSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedSettings {
  const raw: unknown = input ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('router settings', ['expected an object of settings']);
  }
  const { value, problems, references, failed } = resolveEnvReferences(raw, '', env, {
    keepAsIs: isLiveObject,
  });
  const parsed = routerSettingsSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(
      ...zodProblems(parsed.error, value, {
        prefix: '',
        knownKeys: nestedKeys,
        noun: 'setting',
        references,
        ignore: failed,
      }),
    );
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError('router settings', problems);
  const settings = parsed.data;
  if (settings.enable_pre_call_check !== undefined) {
    settings.enable_pre_call_checks = settings.enable_pre_call_check;
  }
  Object.defineProperty(settings, ENV_REFERENCES, { value: references });
  // `console.log(router.settings)` masks redis_password (and any *_key, *_secret) and the URL's password
  defineMaskedInspect(settings, () => ({
    ...settings,
    ...(settings.redis_url !== undefined && { redis_url: redisUrlWithoutPassword(settings.redis_url) }),
  }));
  return settings;
}
