#!/usr/bin/env node
// svc-router: serves the proxy until SIGTERM/SIGINT, then drains, flushes spend and exits 0 (1 after an
// exception nothing caught, which stops it the same way). With
// --workers N a cluster primary forks N processes on one port and passes the signal on.
import cluster from 'node:cluster';
import { ConfigError } from '@svc/router';
import { startProxy } from '../start-proxy.js';
import { tuneV8ForGateway } from '../v8-tuning.js';
import { HELP, parseArgs } from './args.js';
import { clusterProblems, type ListeningMessage, runPrimary } from './cluster.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if ('help' in args) {
    process.stdout.write(HELP);
    return 0;
  }
  if ('version' in args) {
    out(args.version);
    return 0;
  }
  if (args.workers > 1 && cluster.isPrimary) {
    const { error, warning } = clusterProblems(args.config, process.env, args.workers);
    if (error) {
      err(`svc-router: ${error}`);
      return 2;
    }
    if (warning) err(`svc-router: ${warning}`);
    return runPrimary({ workers: args.workers, out, err });
  }
  return serve(args);
}

/** One proxy process: alone, or one worker of a cluster (which reports to the primary instead of printing). */
async function serve(args: { config: string; port: number; host: string }): Promise<number> {
  tuneV8ForGateway();
  const tag = cluster.isWorker ? `svc-router[${process.pid}]` : 'svc-router';
  const proxy = await startProxy({
    configPath: args.config,
    port: args.port,
    host: args.host,
    log: (message) => err(`${tag}: ${message}`),
  });
  if (cluster.isWorker)
    process.send?.({ type: 'svc-router:listening', url: proxy.url } satisfies ListeningMessage);
  else out(`svc-router listening on ${proxy.url}`);
  let stopped = false;
  let failed = false;
  await new Promise<void>((resolve) => {
    const stop = (reason: string) => {
      if (stopped) return;
      stopped = true;
      out(`${tag}: ${reason}, draining`);
      resolve();
    };
    // `on`, not `once`: a second SIGTERM (the cluster primary passing on one its process group also
    // got) must not kill a process that is flushing spend; a second Ctrl-C still stops it at once
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    // a primary that died without telling us leaves nobody to hand us connections
    if (cluster.isWorker) process.once('disconnect', () => stop('primary gone'));
    // An exception nothing caught (a rejection nothing handled, too) would end the process at once:
    // every call in flight cut, every spend row still queued lost. It is logged, and the process
    // drains as on SIGTERM and exits 1.
    let uncaught = 0;
    process.on('uncaughtException', (error) => {
      uncaught += 1;
      // the first with its stack; a timer that throws on every tick must not flood the log
      if (uncaught === 1)
        err(
          `${tag}: uncaught exception: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      else if (Number.isInteger(Math.log10(uncaught - 1)))
        err(`${tag}: ${uncaught - 1} more uncaught exceptions while draining, the last: ${String(error)}`);
      if (failed) return;
      failed = true;
      // its state is unknown: whatever `close()` waits on may never answer, and a process that
      // hangs is not restarted by its supervisor
      setTimeout(() => process.exit(1), proxy.closeBoundMs).unref();
      stop('uncaught exception');
    });
  });
  await proxy.close();
  out(`${tag}: stopped`);
  // the channel to the primary would keep this process alive
  if (cluster.isWorker) process.disconnect();
  // handles a failure left open would keep the process alive
  if (failed) process.exit(1);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    err(`svc-router: ${message}`);
    process.exitCode = 1;
  },
);
