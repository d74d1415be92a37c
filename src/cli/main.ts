#!/usr/bin/env node
// svc-router: serves the proxy until SIGTERM/SIGINT, then drains, flushes spend and exits 0.
import { ConfigError } from '../config/config-error.js';
import { startProxy } from '../proxy/start-proxy.js';
import { HELP, parseArgs } from './args.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if ('help' in args) {
    process.stdout.write(HELP);
    return 0;
  }
  if ('version' in args) {
    process.stdout.write(`${args.version}\n`);
    return 0;
  }
  if (args.workers !== 1) {
    process.stderr.write(
      'svc-router: --workers above 1 is not in this version yet; run one process per core behind a load balancer.\n',
    );
    return 2;
  }
  const proxy = await startProxy({
    configPath: args.config,
    port: args.port,
    host: args.host,
    log: (message) => process.stderr.write(`svc-router: ${message}\n`),
  });
  process.stdout.write(`svc-router listening on ${proxy.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`svc-router: ${signal}, draining\n`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await proxy.close();
  process.stdout.write('svc-router: stopped\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc-router: ${message}\n`);
    process.exitCode = 1;
  },
);
