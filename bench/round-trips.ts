// Counts what one warm virtual-key chat call costs in Redis commands and Postgres statements, for
// proxy/docs/scaling.md. Redis: MONITOR, keeping the commands that name this run's namespace. Postgres: every
// statement node-postgres sends, by kind. Background work (the settings poll, spend flushes) is
// counted apart: it depends on time, not on calls.
//   tsx bench/round-trips.ts [calls=200]
import { randomUUID } from 'node:crypto';
import { startProxy } from '@svc/router-proxy';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startMockProvider } from '../src/testing/index.js';

const CALLS = Number(process.argv[2] ?? 200);
const POSTGRES_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MASTER = 'sk-master-round-trips-0000';

const statements = new Map<string, number>();
const kindOf = (sql: string) => {
  const text = sql.replace(/\s+/g, ' ').trim();
  if (/^SELECT name, version FROM svc_settings/.test(text)) return 'settings poll';
  // a spend batch: its insert, and the lock on its owner rows before it (spend-repo.ts, LOCK_OWNERS)
  if (/svc_spend_logs|FOR UPDATE\) l\)/.test(text)) return 'spend flush';
  if (/^(BEGIN|COMMIT|ROLLBACK)/.test(text)) return 'transaction control';
  if (/FROM svc_keys/.test(text)) return 'key lookup';
  if (/FROM svc_teams/.test(text)) return 'team lookup';
  return text.slice(0, 40);
};
// counts statements as node-postgres sends them (pool queries and transactions both go through here)
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const sql = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (sql) statements.set(kindOf(sql), (statements.get(kindOf(sql)) ?? 0) + 1);
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const namespace = `rt_${randomUUID().slice(0, 8)}`;
const schema = `rt_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const mock = await startMockProvider({ record: false });
const proxy = await startProxy({
  config: {
    model_list: ['east', 'west'].map((id) => ({
      model_name: 'gpt-4o',
      svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}/${id}/v1`, api_key: 'sk-up-0000' },
      model_info: { id },
    })),
    router_settings: { redis_url: REDIS_URL, cache_kwargs: { namespace } },
    general_settings: {
      master_key: MASTER,
      database_url: POSTGRES_URL,
      database_schema: schema,
      log_level: 'warn',
    },
  },
  port: 0,
  env: {},
});

const post = async (url: string, key: string, body: unknown) => {
  const res = await fetch(`${proxy.url}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};

async function measure(label: string, keyBody: Record<string, unknown>) {
  const key = (await post('/key/generate', MASTER, keyBody)).key as string;
  const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
  await post('/v1/chat/completions', key, chat); // warm: key and team cached, connections open
  await new Promise((r) => setTimeout(r, 1500)); // the key's announcement and the warm call's spend settle
  const monitor = new Redis(REDIS_URL);
  const commands = new Map<string, number>();
  await monitor.monitor().then((m) =>
    m.on('monitor', (_time: string, args: string[]) => {
      if (args.some((a) => a.includes(namespace)))
        commands.set(args[0]!.toUpperCase(), (commands.get(args[0]!.toUpperCase()) ?? 0) + 1);
    }),
  );
  statements.clear();
  const started = Date.now();
  for (let i = 0; i < CALLS; i++) await post('/v1/chat/completions', key, chat);
  const seconds = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 700)); // the last spend flush
  monitor.disconnect();
  const redisTotal = [...commands.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${label}: ${CALLS} calls in ${seconds.toFixed(1)} s`);
  console.log(`  Redis commands per call: ${(redisTotal / CALLS).toFixed(2)}`);
  for (const [name, n] of commands) console.log(`    ${name}: ${(n / CALLS).toFixed(2)}`);
  console.log(`  Postgres statements over the run (${(seconds + 0.7).toFixed(1)} s):`);
  for (const [kind, n] of statements) console.log(`    ${kind}: ${n}`);
}

try {
  await measure('virtual key, no limits', {});
  await measure('virtual key with rpm_limit and tpm_limit', {
    rpm_limit: 1_000_000,
    tpm_limit: 1_000_000_000,
  });
} finally {
  await proxy.close();
  await mock.close();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
