import type { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { type EnvReference, resolveEnvReferences } from './resolve-env.js';
import { schemaKeysAt } from './schema-keys.js';
import { zodProblems } from './zod-problems.js';

/** How one settings object is parsed. */
export interface SettingsParse {
  /** What the settings are, for the ConfigError ("router settings", "JWT auth settings"). */
  what: string;
  /** The names a misspelled top-level key is compared with. */
  names: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Paths whose values are the caller's live objects (strategies, callbacks, functions): kept as given. */
  keepAsIs?: (path: readonly PropertyKey[], value: object) => boolean;
}

/**
 * Validates a settings object against its schema after resolving `os.environ/NAME` references. Throws one
 * ConfigError naming every bad field (a value read from the environment named by its variable, never
 * printed; an unknown key with the closest valid one). Returns the parsed value and where each
 * `os.environ/` value came from.
 */
export function parseWithEnv<S extends z.ZodType>(
  schema: S,
  input: unknown,
  how: SettingsParse,
): { data: z.output<S>; references: readonly EnvReference[] } {
  const raw: unknown = input ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(how.what, ['expected an object of settings']);
  }
  const { value, problems, references, failed } = resolveEnvReferences(
    raw,
    '',
    how.env,
    how.keepAsIs ? { keepAsIs: how.keepAsIs } : {},
  );
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    problems.push(
      ...zodProblems(parsed.error, value, {
        prefix: '',
        knownKeys: (path) => schemaKeysAt(schema, path, how.names),
        noun: 'setting',
        references,
        ignore: failed,
      }),
    );
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(how.what, problems);
  return { data: parsed.data, references };
}
