// The gateway as a black box: `svc-router --config <file>` in a child process, on PGlite in a fresh
// data directory or on Postgres in a fresh schema. The probe talks to it over HTTP only; it reads the
// database itself only to look for secrets in every row, and on PGlite only after the process exited.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openDatabase } from '../../proxy/src/db/open-database.js';
import { POSTGRES_URL } from '../../proxy/test/db-engines.js';
import { MASTER_KEY } from '../../proxy/test/harness.js';

export type Engine = 'pglite' | 'postgres';

export interface Gateway {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (its log lines). */
  output(): string;
  /** Sends SIGTERM; resolves with the exit code (or signal) once it exited. */
  sigterm(): Promise<number | string>;
  /** Every row of every table of the proxy's database, as JSON text (after `sigterm()` on PGlite). */
  rows(): Promise<string[]>;
  /** Stops the process (if running) and removes its data directory or schema. */
  close(): Promise<void>;
}

export interface GatewayOptions {
  cliEntry: string;
  engine: Engine;
  /** Postgres only: the URL it reaches the server at (a cut proxy in front of it, say). */
  postgresUrl: string;
  config: Record<string, unknown>;
  /** Extra `general_settings`. */
  general?: Record<string, unknown>;
}

/** Starts `svc-router` with this config (master key, quick spend flushes and `warn` logs added). */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-probe-'));
  const schema = `probe_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const database =
    options.engine === 'postgres'
      ? { database_url: options.postgresUrl, database_schema: schema }
      : { data_dir: join(dir, 'data') };
  const configPath = join(dir, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      ...options.config,
      general_settings: {
        master_key: MASTER_KEY,
        log_level: 'warn',
        spend_flush_interval: 0.05,
        ...database,
        ...options.general,
      },
    }),
  );
  const child = spawn(process.execPath, [options.cliEntry, '--config', configPath, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  let text = '';
  child.stdout.on('data', (d) => {
    text += d;
  });
  child.stderr.on('data', (d) => {
    text += d;
  });
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`svc-router exited (${code}) before listening:\n${text}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
  const openDb = () =>
    openDatabase(
      options.engine === 'postgres' ? { url: options.postgresUrl, schema } : { dataDir: join(dir, 'data') },
    );
  return {
    url,
    child,
    output: () => text,
    sigterm: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    rows: async () => {
      const db = await openDb();
      try {
        const { rows: tables } = await db.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
          [options.engine === 'postgres' ? schema : 'public'],
        );
        const out: string[] = [];
        for (const { table_name } of tables) {
          const { rows } = await db.query(`SELECT * FROM "${table_name}"`);
          for (const row of rows) out.push(`${table_name} ${JSON.stringify(row)}`);
        }
        return out;
      } finally {
        await db.close();
      }
    },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await rm(dir, { recursive: true, force: true });
      if (options.engine === 'postgres') {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}
