import { ConfigError } from './config-error.js';
import { resolveEnvReferences } from './resolve-env.js';
import {
  type ResolvedSettings,
  type RouterSettings,
  routerSettingsSchema,
  SETTING_NAMES,
} from './settings-schema.js';
import { zodProblems } from './zod-problems.js';

function nestedKeys(path: readonly PropertyKey[]): readonly string[] {
  let shape: unknown = routerSettingsSchema;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    shape = (shape as { shape?: Record<string, unknown> }).shape?.[key];
    // unwrap optional/default/array wrappers to reach the object's shape
    for (let i = 0; i < 4 && shape && !(shape as { shape?: unknown }).shape; i++) {
      const def = (shape as { def?: { innerType?: unknown; element?: unknown } }).def;
      shape = def?.innerType ?? def?.element;
    }
  }
  const s = (shape as { shape?: Record<string, unknown> } | undefined)?.shape;
  return s ? Object.keys(s) : SETTING_NAMES;
}

/**
 * Validates router settings, resolving `os.environ/NAME` references. Throws ConfigError naming every bad
 * field; an unknown key gets the closest valid one ("unknown setting `num_retry`; did you mean
 * `num_retries`?").
 */
export function parseSettings(
  input: RouterSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedSettings {
  const raw = input ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError('router settings', ['expected an object of settings']);
  }
  const { value, problems } = resolveEnvReferences(raw, 'settings', env);
  const parsed = routerSettingsSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(
      ...zodProblems(parsed.error, value, { prefix: '', knownKeys: nestedKeys, noun: 'setting' }),
    );
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError('router settings', problems);
  const settings = parsed.data;
  if (settings.enable_pre_call_check !== undefined) {
    settings.enable_pre_call_checks = settings.enable_pre_call_check;
  }
  return settings;
}
