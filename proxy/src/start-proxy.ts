import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { type CallRecords, DEFAULT_CLOSE_DEADLINE_MS, loadTokenCounter, Router } from '@svc/router';
import { loadConfigFile } from '@svc/router/config';
import type { JwtAuthDeps } from '@svc/router/jwt';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { createAuthenticate } from './auth/authenticate.js';
import type { JwtGate } from './auth/jwt-caller.js';
import { KeyCache } from './auth/key-cache.js';
import { identityOf } from './auth/key-identity.js';
import { TeamCache, teamStatusOf } from './auth/team-cache.js';
import { buildProxyApp } from './build-app.js';
import { generalSettingsSchema, resolveProxySettings } from './config/general-settings.js';
import { SettingsSync } from './config/settings-sync.js';
import type { Database } from './db/database.js';
import { findKeyForAuth } from './db/keys-repo.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open-database.js';
import { getTeam } from './db/teams-repo.js';
import { ConnectionDrain } from './http/connection-drain.js';
import { drainCalls, flushDeadlineMs } from './http/drain.js';
import { CachedJwtDirectory } from './jwt/cached-directory.js';
import { DbJwtDirectory } from './jwt/db-directory.js';
import { jwtGate, resolveProxyJwtSettings } from './jwt/jwt-settings.js';
import { createAdmission } from './limits/admission.js';
import { BudgetGate } from './limits/budget-gate.js';
import { BudgetPeriods } from './limits/budget-periods.js';
import { OwnerCaches } from './limits/owner-caches.js';
import { type ProxyStores, proxyStores } from './limits/proxy-stores.js';
import { RateLimits } from './limits/rate-limits.js';
import { softBudgetAlerts } from './limits/soft-budget-alerts.js';
import { type OtlpTracing, startOtlpTracing } from './observability/otlp-tracing.js';
import { createProxyLogger, routerLogger } from './observability/proxy-logger.js';
import { createProxyMetrics } from './observability/proxy-metrics.js';
import { requestTracing } from './observability/request-tracing.js';
import type { ProxyContext, ReadinessCheck } from './proxy-context.js';
import { OpenCalls } from './spend/open-calls.js';
import { proxyCallRecords, spendSink } from './spend/proxy-records.js';
import { SpendWriter } from './spend/spend-writer.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** How to start the proxy (CONTRACT 4). */
export interface StartProxyOptions {
  /** A config file's path (YAML or JSON). */
  configPath?: string;
  /** The config as an object (what the file would hold); `configPath` wins when both are given. */
  config?: Record<string, unknown>;
  /** @default 4000 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** The environment `os.environ/` references, `DATABASE_URL` and `SVC_MASTER_KEY` are read from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /**
   * Told of what the proxy cannot answer a caller about: spend rows it could not write yet (and why),
   * rows it had to drop. One line each, never a secret. @default silent
   */
  log?: (message: string) => void;
  /**
   * The teams, users, organizations, memberships and key mappings JWT auth resolves tokens against.
   * @default the proxy database's
   */
  jwtDirectory?: (db: Database) => JwtAuthDeps;
  /** Where the proxy's JSON log lines go (`general_settings.log_level` sets the level). @default stdout */
  logStream?: DestinationStream;
  /**
   * An open database to serve from instead of the configured one: it is migrated, and left open by
   * `close()`. For running two proxies on one embedded database, as two processes share a Postgres.
   */
  database?: Database;
}

/** A running proxy. */
export interface RunningProxy {
  /** `http://host:port`, with the port actually bound (0 picks a free one). */
  url: string;
  port: number;
  app: FastifyInstance;
  router: Router;
  /**
   * Stops accepting, lets calls in flight finish (up to `drain_timeout`; keep-alive connections close
   * as soon as their answers are out), writes every pending spend row and sends pending call records
   * (up to 5 s), and releases the database, the store and the router's connections. Resolves as soon as
   * that is done, whatever idle clients hold.
   */
  close(): Promise<void>;
  /**
   * The longest `close()` should take: `drain_timeout`, then the cut calls' grace and the spend and
   * call-record flushes. For a process that must exit even if something it closes never answers.
   */
  closeBoundMs: number;
}

/** What `close()` may take past `drain_timeout`: the cut calls' second, the flushes' 2 to 5 s, closing. */
const CLOSE_MARGIN_MS = 15_000;

/**
 * Starts the `svc-router` gateway: loads and validates the config (every problem at once), opens the
 * database (Postgres when a `database_url` is set, else embedded PGlite next to the config file) and
 * migrates it, then serves the Router over HTTP.
 *
 * @example
 * const proxy = await startProxy({ configPath: './config.yaml', port: 4000 });
 * // ... later
 * await proxy.close();
 */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const source = options.configPath ?? options.config;
  if (source === undefined) throw new TypeError('startProxy: give `configPath` or `config`.');
  const loaded = loadConfigFile(source, {
    env: options.env ?? process.env,
    generalSettings: generalSettingsSchema,
  });
  const settings = resolveProxySettings(loaded.generalSettings, loaded.env, loaded.dir);
  const jwt = await resolveProxyJwtSettings(
    loaded.generalSettings,
    loaded.env,
    loaded.dir,
    loaded.file ? `config file ${loaded.file}` : 'config',
  );
  const logger = createProxyLogger({ level: settings.logLevel, stream: options.logStream });
  // before the router: its spans go to the exporter from its first call
  const otel = settings.otlpEndpoint
    ? await startOtlpTracing({ endpoint: settings.otlpEndpoint, serviceName: settings.otelServiceName })
    : undefined;
  // call records are the proxy's (from spend rows, which know the key and team), not the router's
  const { callbacks, ...routerSettings } = loaded.routerSettings;
  const records = proxyCallRecords(callbacks, loaded.env, options.log ?? ((message) => logger.warn(message)));
  const stores = proxyStores(routerSettings, loaded.env);
  const router = new Router(loaded.modelList, routerSettings, {
    env: loaded.env,
    store: stores.shared,
    logger: routerLogger(logger.child({ component: 'router' })),
  });
  printUnpriced(router, logger);
  // while the database opens, and not on the event loop of the first call that counts tokens (a cut
  // stream's row, the pre-call checks): a pause all calls in flight would share, and a shutdown wait
  const tokenizer = loadTokenCounter();
  let db: Database | undefined;
  try {
    const opened =
      options.database ??
      (await openDatabase({
        url: settings.databaseUrl,
        dataDir: settings.dataDir,
        schema: settings.databaseSchema,
      }));
    if (!options.database) db = opened;
    await migrate(opened);
    await tokenizer;
    const directory = new CachedJwtDirectory((options.jwtDirectory ?? defaultJwtDirectory)(opened), {
      ttlMs: settings.keyCacheTtlMs,
    });
    return await serve(opened, router, stores, settings, {
      ...options,
      jwt: jwt && jwtGate(jwt, directory),
      identities: directory,
      logger,
      otel,
      records,
    });
  } catch (error) {
    await Promise.allSettled([
      db?.close(),
      router.close(),
      stores.shared?.close?.(),
      otel?.shutdown(),
      records.close({ deadlineMs: 0 }),
    ]);
    throw error;
  }
}

async function serve(
  db: Database,
  router: Router,
  stores: ProxyStores,
  settings: ReturnType<typeof resolveProxySettings>,
  options: StartProxyOptions & {
    jwt: JwtGate | undefined;
    /** The JWT directory's cached lookups, dropped whenever keys and teams are. */
    identities: CachedJwtDirectory;
    logger: PinoLogger;
    otel: OtlpTracing | undefined;
    records: CallRecords;
  },
): Promise<RunningProxy> {
  const { records } = options;
  const now = Date.now;
  const spend = new SpendWriter(db, {
    flushIntervalMs: settings.spendFlushIntervalMs,
    onError: options.log ?? ((message) => options.logger.warn(message)),
  });
  const calls = new OpenCalls();
  // aborted when a shutdown cuts the connections left at drain_timeout (drainCalls)
  const drainCut = new AbortController();
  // other processes of the deployment share the database: stored router_settings and key changes reach
  // this one through the same poll
  const sync = new SettingsSync({
    db,
    router,
    onAuthChange: () => {
      keys.clear();
      teams.clear();
      owners.clear();
      options.identities.clear();
    },
    log: options.log,
  });
  // a key or team changed here: identities cached for JWTs may name it too
  const authChanged = () => {
    options.identities.clear();
    owners.clear();
    sync.announceAuthChange();
  };
  const announce = { ttlMs: settings.keyCacheTtlMs, onInvalidate: authChanged };
  const keys = new KeyCache(async (hash) => {
    const record = await findKeyForAuth(db, hash);
    return record && identityOf(record);
  }, announce);
  const teams = new TeamCache(async (teamId) => {
    const team = await getTeam(db, teamId);
    return team && teamStatusOf(team);
  }, announce);
  const owners = new OwnerCaches(db, announce);
  const log = options.log ?? ((message: string) => options.logger.warn(message));
  const readiness: ReadinessCheck[] = [
    { name: 'database', check: async () => void (await db.query('SELECT 1')) },
  ];
  if (stores.ping) readiness.push({ name: 'redis', check: stores.ping });
  const ctx: ProxyContext = {
    router,
    db,
    keys,
    teams,
    owners,
    authChanged,
    authenticate: createAuthenticate({
      masterKey: settings.masterKey || undefined,
      keys,
      teams,
      now,
      jwt: options.jwt,
    }),
    jwt: options.jwt,
    admit: calls.admitting(
      createAdmission({
        budgets: new BudgetGate({
          onSoftBudget: softBudgetAlerts({ db, raise: (line) => router.sendAlert(line), log }),
        }),
        limits: new RateLimits(stores.limits, now),
        teams,
        owners,
        periods: new BudgetPeriods({ db, now }),
        sink: calls.sinking(spendSink((row) => spend.add(row), records)),
        now,
        accessGroups: () => router.getAccessGroups(),
        wildcardFor: (model) => router.wildcardFor(model),
      }),
    ),
    readiness,
    spendStats: () => spend.stats(),
    now,
    bodyLimit: settings.maxRequestBodyBytes,
    passThrough: settings.passThrough,
    disconnectRead: { ...settings.disconnectRead, cut: drainCut.signal },
    sendTimeoutMs: settings.sendTimeoutMs,
    version,
    observability: {
      log: options.logger,
      metrics: createProxyMetrics({
        router,
        spendStats: () => spend.stats(),
        recordStats: () => records.stats(),
      }),
      metricsPublic: settings.metricsPublic,
      tracing: requestTracing(trace.getTracer('@svc/router/proxy')),
    },
    settings: sync,
  };
  const app = buildProxyApp(ctx);
  const connections = new ConnectionDrain(app.server);
  await sync.start();
  await app.listen({ port: options.port ?? 4000, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4000);
  const host = options.host ?? '127.0.0.1';
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    app,
    router,
    closeBoundMs: settings.drainTimeoutMs + CLOSE_MARGIN_MS,
    close: () => {
      closing ??= (async () => {
        const startedAt = Date.now();
        await drainCalls(app, connections, calls, settings.drainTimeoutMs, drainCut);
        await sync.close();
        const [{ unwritten }] = await Promise.all([
          spend.close({ deadlineMs: flushDeadlineMs(startedAt, settings.drainTimeoutMs, Date.now()) }),
          records.close({ deadlineMs: Math.min(settings.drainTimeoutMs, DEFAULT_CLOSE_DEADLINE_MS) }),
        ]);
        if (unwritten > 0) options.log?.(`${unwritten} spend rows could not be written before the deadline`);
        await Promise.allSettled([router.close(), stores.shared?.close?.()]);
        if (!options.database) await db.close();
        await options.otel?.shutdown();
      })();
      return closing;
    },
  };
}

/** Names the deployments with no price at start, and what that means for the proxy's budgets. */
function printUnpriced(router: Router, logger: PinoLogger): void {
  const unpriced = router.getDeployments().filter((d) => !d.priced);
  if (unpriced.length === 0) return;
  logger.warn(
    { unpriced: unpriced.map((d) => `${d.model_name} (${d.provider}/${d.model})`) },
    `${unpriced.length} unpriced deployment(s): their spend rows say cost 0 and priced: false, and calls ` +
      'charged to a max_budget are refused on them (400 model_unpriced) unless model_info.allow_unpriced ' +
      'is set; give them prices or a model_cost_map file (docs/cost.md)',
  );
}

function defaultJwtDirectory(db: Database): JwtAuthDeps {
  return new DbJwtDirectory(db);
}
