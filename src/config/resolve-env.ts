const PREFIX = 'os.environ/';

/** Reads `os.environ/NAME` references; reports unset names, never values. */
export interface EnvResolution<T> {
  value: T;
  /** "<path>: environment variable NAME is not set" for each reference that could not be read. */
  problems: string[];
}

/**
 * Replaces every string `os.environ/NAME` in `value` (deeply, in objects and arrays) with the variable's
 * value from `env`.
 */
export function resolveEnvReferences<T>(
  value: T,
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): EnvResolution<T> {
  const problems: string[] = [];
  const walk = (v: unknown, at: string): unknown => {
    if (typeof v === 'string') {
      if (!v.startsWith(PREFIX)) return v;
      const name = v.slice(PREFIX.length);
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        problems.push(`${at}: environment variable ${name} is not set`);
        return v;
      }
      return resolved;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${at}[${i}]`));
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, `${at}.${k}`);
      return out;
    }
    return v;
  };
  return { value: walk(value, path) as T, problems };
}
