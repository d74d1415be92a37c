import type * as Vitest from 'vitest';

/*
 * The contracts are vitest suites, but vitest is only an optional peer dependency: it is loaded inside a
 * vitest run only (vitest sets VITEST in its workers), so that importing `@svc/router/testing` for the
 * mock provider elsewhere (node:test, a script) neither needs vitest installed nor loads it.
 */
const loaded: typeof Vitest | undefined = process.env.VITEST ? await import('vitest') : undefined;

/** vitest's API for a contract suite; throws saying how to run it when called outside vitest. */
export function vitestApi(contract: string): typeof Vitest {
  if (!loaded) {
    throw new Error(
      `${contract} is a vitest suite: install vitest (npm install --save-dev vitest) and run the file that calls it with vitest`,
    );
  }
  return loaded;
}
