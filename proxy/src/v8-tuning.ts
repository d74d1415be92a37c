import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags a gateway process runs with, and why.
 *
 * `--no-allocation-site-pretenuring`: V8 watches each object or array literal in the code, and when
 * most of the objects it made outlived a garbage collection, it allocates that literal's objects
 * straight into the old generation from then on. Under load at start-up, a stream's per-chunk objects
 * (server-sent events, chunks, iterator steps) can be judged long-lived that way. From then on every
 * chunk is allocated old and dies there, and the strings it holds are dragged into the old generation
 * with it, so each young-generation GC copies them and the full GCs come more often. The decision is
 * never revisited. Measured on Node 20 (`npm run bench:ab -- --mode streaming --conns 50`), the gateway
 * spent 163 to 219 µs of CPU per streamed call without the flag and 138 to 153 with it. On Node 22
 * and 24 the gain is smaller. Objects that really live long are still promoted by the young GC.
 */
export const GATEWAY_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** A flag's name as V8 reads it: `--no-` and the polarity dropped, `_` and `-` alike. */
const flagName = (flag: string): string =>
  flag
    .replace(/^--(no-?)?/, '')
    .replace(/=.*$/, '')
    .replaceAll('_', '-');

/**
 * The gateway flags to set in a process started with `execArgv`: all of `GATEWAY_V8_FLAGS` except
 * those its command line already sets, either way (`node --allocation-site-pretenuring` keeps V8's
 * default).
 */
export function gatewayV8FlagsFor(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('--')).map(flagName));
  return GATEWAY_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Sets the gateway's V8 flags (`GATEWAY_V8_FLAGS`) in this process, before it serves: `svc-router`
 * does so as it starts. Call it first when embedding the gateway with `startProxy`. A flag given on
 * the command line is left as given. Returns the flags it set.
 *
 * @example
 * import { startProxy, tuneV8ForGateway } from '@svc/router-proxy';
 * tuneV8ForGateway();
 * const proxy = await startProxy({ configPath: 'config.yaml' });
 */
export function tuneV8ForGateway(execArgv: readonly string[] = process.execArgv): string[] {
  const flags = gatewayV8FlagsFor(execArgv);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
