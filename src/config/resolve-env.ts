import { pathOf } from './config-path.js';

const PREFIX = 'os.environ/';

/**
 * Keys that reach an object's prototype when copied or read (`{"__proto__": {...}}` in JSON or YAML):
 * dropped wherever they appear, so they can neither pollute a prototype nor be read as settings.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Config nested deeper than this is not something a person wrote: it is reported as a problem instead of
 * being walked (which on a cycle or a machine-made tree would end in a RangeError).
 */
export const MAX_CONFIG_DEPTH = 64;

/** A string `os.environ/NAME` that was replaced by the variable's value. */
export interface EnvReference {
  /** Where the value sits, relative to the resolved value (zod issue paths use the same keys). */
  readonly path: readonly PropertyKey[];
  readonly name: string;
  readonly value: string;
}

/** Reads `os.environ/NAME` references; reports unset names, never values. */
export interface EnvResolution<T> {
  value: T;
  /** One line per problem: an unset variable, a cycle, nesting past {@link MAX_CONFIG_DEPTH}. */
  problems: string[];
  /** Every reference that was resolved, so that later messages can name the variable instead of its value. */
  references: EnvReference[];
  /** Whether a path is at or under one of the `problems` (its value is left unresolved or cut off). */
  failed(path: readonly PropertyKey[]): boolean;
}

export interface ResolveOptions {
  /** Paths whose values are live objects (strategies, callbacks): kept as given, never copied or walked. */
  keepAsIs?: (path: readonly PropertyKey[], value: object) => boolean;
}

const isData = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Copies config data (plain objects and arrays, deeply), replacing every string `os.environ/NAME` with
 * the variable's value from `env`. On the way it drops {@link UNSAFE_KEYS}, and reports (never throws)
 * a cycle, nesting deeper than {@link MAX_CONFIG_DEPTH}, or a property that throws when read. Class
 * instances and functions are kept as they are.
 */
export function resolveEnvReferences<T>(
  value: T,
  prefix: string,
  env: NodeJS.ProcessEnv = process.env,
  options: ResolveOptions = {},
): EnvResolution<T> {
  const problems: string[] = [];
  const references: EnvReference[] = [];
  const failedPaths: PropertyKey[][] = [];
  const fail = (path: readonly PropertyKey[], problem: string): undefined => {
    problems.push(problem);
    failedPaths.push([...path]);
    return undefined;
  };
  const ancestors = new Set<object>();
  const walk = (v: unknown, path: PropertyKey[]): unknown => {
    if (typeof v === 'string') {
      if (!v.startsWith(PREFIX)) return v;
      const name = v.slice(PREFIX.length);
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        fail(path, `${pathOf(prefix, path)}: environment variable ${name} is not set`);
        return v;
      }
      references.push({ path: [...path], name, value: resolved });
      return resolved;
    }
    if (!v || typeof v !== 'object' || !(Array.isArray(v) || isData(v))) return v;
    if (options.keepAsIs?.(path, v)) return v;
    if (ancestors.has(v))
      return fail(path, `${pathOf(prefix, path)}: refers to itself (a cycle); config must be a tree`);
    if (path.length >= MAX_CONFIG_DEPTH)
      return fail(path, `${pathOf(prefix, path)}: nested deeper than ${MAX_CONFIG_DEPTH} levels`);
    ancestors.add(v);
    try {
      if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        if (UNSAFE_KEYS.has(key)) continue;
        out[key] = walk(read(v, key, path), [...path, key]);
      }
      return out;
    } finally {
      ancestors.delete(v);
    }
  };
  // a getter that throws is a problem with that field, not a crash of the constructor
  const read = (v: object, key: string, path: PropertyKey[]): unknown => {
    try {
      return (v as Record<string, unknown>)[key];
    } catch (err) {
      const reason = err instanceof Error ? err.name : typeof err;
      return fail([...path, key], `${pathOf(prefix, [...path, key])}: reading the value threw (${reason})`);
    }
  };
  const resolved = walk(value, []) as T;
  const failed = (path: readonly PropertyKey[]) =>
    failedPaths.some((f) => f.length <= path.length && f.every((key, i) => String(key) === String(path[i])));
  return { value: resolved, problems, references, failed };
}

/** The reference at exactly `path`, if that value came from the environment. */
export function referenceAt(
  references: readonly EnvReference[],
  path: readonly PropertyKey[],
): EnvReference | undefined {
  return references.find(
    (r) => r.path.length === path.length && r.path.every((key, i) => String(key) === String(path[i])),
  );
}
