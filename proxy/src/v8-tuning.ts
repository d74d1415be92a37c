import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags a gateway process runs with, and why.
 *
 * `--no-allocation-site-pretenuring`: V8 watches each object or array literal in the code, and when
 * most of the objects it made outlived a garbage collection, it allocates that literal's objects
 * straight into the old generation from then on. Under load at start-up, a stream's per-chunk objects
 * (server-sent events, chunks, iterator steps) can be judged long-lived that way. From then on every
 * chunk is allocated old and dies there, and the strings it holds are dragged into the old generation
 * with it, so each young-generation GC copies them and the full GCs come more often. V8 rarely
 * revisits the decision. Measured on Node 20 (`npm run bench:ab`, two processes per tree), a streamed
 * call through the gateway cost 166 to 206 µs of CPU without the flag and 139 to 168 with it, about
 * 15% less; on Node 22, 181 and 232 µs against 148 and 158 at 50 connections; on Node 24, about 14%
 * less. Objects that really live long are still promoted by the young generation's GC.
 */
export const GATEWAY_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/**
 * A V8 flag's name whichever way it is spelled: one dash or two, `_` or `-`, a `no` or `no-` prefix
 * for the negation, a `=value`.
 */
const flagName = (flag: string): string =>
  flag.replace(/^--?/, '').replace(/=.*$/, '').replaceAll('_', '-').replace(/^no-?/, '');

/**
 * The gateway flags to set in a process started with `execArgv`: all of `GATEWAY_V8_FLAGS` except
 * those its command line already sets, either way (`node --allocation-site-pretenuring` keeps V8's
 * default).
 */
export function gatewayV8FlagsFor(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('-')).map(flagName));
  return GATEWAY_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Sets the gateway's V8 flags (`GATEWAY_V8_FLAGS`) in this process, before it serves: `svc-router`
 * does so in each serving process before `startProxy`. Call it first when embedding the gateway with
 * `startProxy`; the flags are process-wide, so they apply to the rest of your process too. A flag
 * given on node's command line is left as given. Returns the flags it set.
 *
 * @example
 * import { startProxy, tuneV8ForGateway } from '@svc/router-proxy';
 * tuneV8ForGateway();
 * const proxy = await startProxy({ configPath: 'config.yaml' });
 */
export function tuneV8ForGateway(): string[] {
  const flags = gatewayV8FlagsFor(process.execArgv);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
