import { createRequire } from 'node:module';
import { parseArgs as parseNodeArgs } from 'node:util';

/** What `svc-router` was asked to do. */
export type CliArgs =
  | { config: string; port: number; host: string; workers: number }
  | { help: true }
  | { version: string };

export const HELP = `Usage: svc-router --config <file.yaml> [--port 4000] [--host 127.0.0.1]

Serves the router over HTTP (OpenAI and Anthropic APIs, virtual keys, spend logs).

  -c, --config <file>   the config file (YAML or JSON)               required
  -p, --port <n>        port to listen on (0 picks a free one)       4000
      --host <addr>     address to listen on                         127.0.0.1
      --workers <n>     processes sharing the port (needs Postgres)  1
  -h, --help            this text
  -v, --version         the version

Environment: DATABASE_URL (Postgres; absent: embedded database next to the config file),
SVC_MASTER_KEY (when general_settings.master_key is not set).
Docs: docs/proxy.md in the package.
`;

/** Parses the command line; throws an Error whose message names the bad flag. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const { values } = parseNodeArgs({
    args: [...argv],
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      workers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return { help: true };
  if (values.version) {
    const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
    return { version };
  }
  if (!values.config) throw new Error('--config <file.yaml> is required (see --help)');
  return {
    config: values.config,
    port: integer('--port', values.port, 4000, 0, 65_535),
    host: values.host ?? '127.0.0.1',
    workers: integer('--workers', values.workers, 1, 1, 1024),
  };
}

function integer(
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${flag}: expected a whole number from ${min} to ${max}, got \`${value}\``);
  }
  return n;
}
