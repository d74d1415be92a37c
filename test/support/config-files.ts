// Config-file test steps shared by the library's tests (test/config) and the proxy's (proxy/test/config).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/router/config';
import { expect } from 'vitest';

/** The ConfigError `fn` throws (failing the test when it throws anything else, or nothing). */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

/** The problems of the ConfigError `fn` throws. */
export const problemsOf = (fn: () => unknown): readonly string[] => configErrorOf(fn).problems;

/** A temporary directory to write config files in; `remove()` when done. */
export async function configDir(): Promise<{
  path: string;
  /** Writes `text` to `name` in the directory; its path. */
  file(name: string, text: string): Promise<string>;
  remove(): Promise<void>;
}> {
  const path = await mkdtemp(join(tmpdir(), 'svc-config-'));
  return {
    path,
    file: async (name, text) => {
      const file = join(path, name);
      await writeFile(file, text);
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
