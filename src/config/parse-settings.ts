import { defineMaskedInspect } from '../callbacks/mask-key.js';
import { redisUrlWithoutPassword } from '../stores/redis-options.js';
import { isLiveCallback } from './callback-setting.js';
import { parseWithEnv } from './parse-with-env.js';
import { type EnvReference, referenceAt } from './resolve-env.js';
import {
  type ResolvedSettings,
  type RouterSettings,
  routerSettingsSchema,
  SETTING_NAMES,
} from './settings-schema.js';

// Strategy, logger and destination objects are the user's live objects (with state and methods), not
// config data: they are passed on as given, never copied or searched for `os.environ/` references.
// `callbacks` entries are data (their headers may read the environment).
function isLiveObject(path: readonly PropertyKey[], value: unknown): boolean {
  const [first, , third] = path;
  return (
    (path.length === 1 && first === 'routing_strategy') ||
    (path.length === 2 && first === 'callbacks' && isLiveCallback(value)) ||
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
  const { data: settings, references } = parseWithEnv(routerSettingsSchema, input, {
    what: 'router settings',
    names: SETTING_NAMES,
    env,
    keepAsIs: isLiveObject,
  });
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
