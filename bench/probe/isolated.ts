// Issue 22's items that need a gateway of their own: Redis unreachable, Postgres cut, SIGTERM. Each
// starts one, and hands its log lines and database rows to the secrets search when it is done.
import { Client } from 'undici';
import { mockDeployment } from '../../proxy/test/harness.js';
import { startCutProxy } from '../../proxy/test/tcp-cut-proxy.js';
import type { MockProvider } from '../../src/testing/index.js';
import { type Engine, type Gateway, type GatewayOptions, startGateway } from './gateway.js';
import { admin, call, chat, newKey, rowsOnce } from './http.js';
import type { Check } from './result.js';

/** Log lines and database rows of every gateway, for the secrets search. */
export const dumps: string[] = [];

export interface IsolatedCtx {
  cliEntry: string;
  engine: Engine;
  postgresUrl: string;
  mock: MockProvider;
  closedPort: number;
}

async function withGateway<T>(
  options: Omit<GatewayOptions, 'cliEntry'> & { cliEntry: string },
  run: (g: Gateway) => Promise<T>,
): Promise<T> {
  const g = await startGateway(options);
  try {
    const result = await run(g);
    await g.sigterm();
    dumps.push(g.output(), ...(await g.rows()));
    return result;
  } finally {
    await g.close();
  }
}

const spendRowsIn = (rows: readonly string[]) => rows.filter((r) => r.startsWith('svc_spend_logs ')).length;

export function isolatedChecks(ctx: IsolatedCtx): Check[] {
  const { mock } = ctx;
  const base = { cliEntry: ctx.cliEntry, engine: ctx.engine, postgresUrl: ctx.postgresUrl };
  return [
    {
      id: '#22.4',
      tried: 'Redis configured but unreachable; five calls of a key with `rpm_limit: 100`',
      run: () =>
        withGateway(
          {
            ...base,
            config: {
              model_list: [mockDeployment(mock, 'm', 'm')],
              router_settings: { redis_host: '127.0.0.1', redis_port: ctx.closedPort },
            },
          },
          async (g) => {
            const k = await newKey(g.url, { rpm_limit: 100 });
            const answers = [];
            for (let i = 0; i < 5; i++) answers.push(await chat(g.url, k.headers, 'm'));
            const rows = await rowsOnce(g.url, k.hash, 5);
            const redisLines = g
              .output()
              .split('\n')
              .filter((l) => /redis/i.test(l)).length;
            return {
              served: answers.filter((a) => a.status === 200).length,
              total: 5,
              rows: rows.length,
              rowsExpected: 5,
              note: `statuses: ${answers.map((a) => a.status).join(', ')}; log lines naming Redis: ${redisLines}`,
            };
          },
        ),
    },
    {
      id: '#22.5',
      tried:
        'Postgres cut (a TCP proxy in front of it drops every connection): a call with an uncached key, `/key/list`, a call with a cached key; then Postgres back (always on Postgres, whatever `--db`)',
      run: async () => {
        const cut = await startCutProxy({ host: '127.0.0.1', port: 5432 });
        try {
          return await withGateway(
            {
              ...base,
              engine: 'postgres',
              postgresUrl: ctx.postgresUrl.replace(/:\d+\//, `:${cut.port}/`),
              config: { model_list: [mockDeployment(mock, 'm', 'm')] },
            },
            async (g) => {
              const fresh = await newKey(g.url);
              const warm = await newKey(g.url);
              await chat(g.url, warm.headers, 'm');
              await rowsOnce(g.url, warm.hash, 1);
              cut.cut();
              const uncached = await chat(g.url, fresh.headers, 'm');
              const list = await call(g.url, 'GET', '/key/list', admin);
              const cached = await chat(g.url, warm.headers, 'm');
              cut.restore();
              const after = await chat(g.url, fresh.headers, 'm');
              const rows = (await rowsOnce(g.url, warm.hash, 2, 15_000)).length;
              const freshRows = (await rowsOnce(g.url, fresh.hash, 1)).length;
              const unavailable = (a: { status: number; json?: { error?: { code?: string } } }) =>
                a.status === 503 && a.json?.error?.code === 'database_unavailable';
              return {
                served:
                  Number(unavailable(uncached)) +
                  Number(unavailable(list)) +
                  Number(cached.status === 200) +
                  Number(after.status === 200),
                total: 4,
                rows: rows + freshRows,
                rowsExpected: 3,
                note: `uncached key: ${uncached.status} ${uncached.json?.error?.code}; /key/list: ${list.status} ${list.json?.error?.code}; cached key: ${cached.status}; after: ${after.status}; the cached key's row written once Postgres was back`,
              };
            },
          );
        } finally {
          cut.restore();
          await cut.close();
        }
      },
    },
    {
      id: '#22.10',
      tried:
        'SIGTERM (`drain_timeout: 20`) with an idle keep-alive client and a call in flight on another (undici clients)',
      run: async () => {
        mock.setBehavior('/slow/', { content: 'ok', delayMs: 300 });
        const g = await startGateway({
          ...base,
          config: { model_list: [mockDeployment(mock, 'slow', 'slow')] },
          general: { drain_timeout: 20, spend_flush_interval: 5 },
        });
        try {
          const idle = new Client(g.url, { keepAliveTimeout: 60_000 });
          const busy = new Client(g.url, { keepAliveTimeout: 60_000 });
          const request = (client: Client) =>
            client.request({
              path: '/v1/chat/completions',
              method: 'POST',
              headers: { ...admin, 'content-type': 'application/json' },
              body: JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'hi' }] }),
            });
          await (await request(idle)).body.text();
          const hitsBefore = mock.hits('/slow/');
          const inFlight = request(busy);
          while (mock.hits('/slow/') === hitsBefore) await new Promise((r) => setTimeout(r, 5));
          const start = performance.now();
          const exited = g.sigterm();
          const res = await inFlight;
          await res.body.text();
          const code = await exited;
          const seconds = (performance.now() - start) / 1000;
          await idle.destroy();
          await busy.destroy();
          const rowsAll = await g.rows();
          dumps.push(g.output(), ...rowsAll);
          const rows = spendRowsIn(rowsAll);
          return {
            served: Number(res.statusCode === 200 && res.headers.connection === 'close'),
            total: 1,
            rows,
            rowsExpected: 2,
            holds: code === 0 && seconds < 3,
            note: `the call in flight: ${res.statusCode}, \`connection: ${res.headers.connection}\`; exit ${code} ${seconds.toFixed(1)} s after SIGTERM`,
          };
        } finally {
          await g.close();
        }
      },
    },
  ];
}

/** Item 12 is not probed here: it needs an identity provider (JWKS) and RBAC mappings. */
export const SKIPPED = [
  {
    id: '#22.12',
    tried: 'an unmapped RBAC role with an object id claim',
    why: 'skipped: needs an identity provider and JWT setup; covered by test/jwt/rbac-scopes.test.ts',
  },
];
