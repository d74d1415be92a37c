import type { Router } from '@svc/router';
import type { Logger as PinoLogger } from 'pino';
import type { Authenticate } from './auth/authenticate.js';
import type { JwtGate } from './auth/jwt-caller.js';
import type { KeyCache } from './auth/key-cache.js';
import type { TeamCache } from './auth/team-cache.js';
import type { DisconnectRead } from './config/general-settings.js';
import type { SettingsSync } from './config/settings-sync.js';
import type { Database } from './db/database.js';
import type { Admit } from './limits/admission.js';
import type { OwnerCaches } from './limits/owner-caches.js';
import type { ProxyMetrics } from './observability/proxy-metrics.js';
import type { RequestTracing } from './observability/request-tracing.js';
import type { PassThroughEndpoint } from './passthrough/settings.js';

/** A dependency `/health/readiness` checks (the database, Redis). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (with a message fit to show) when it does not. */
  check(): Promise<void>;
}

/** What spend logging reports of itself. */
export interface SpendStats {
  pending: number;
  written: number;
  failedFlushes: number;
  /** Rows not kept: more were pending than the writer holds, or they came after it closed. */
  dropped: number;
  /** Rows the database refused as data. */
  rejected: number;
}

/** Logs, metrics and traces of the proxy (docs/observability.md). */
export interface ProxyObservability {
  /** Fastify's logger (JSON lines, secrets redacted). */
  log: PinoLogger;
  metrics: ProxyMetrics;
  /** `GET /metrics` needs no key. */
  metricsPublic: boolean;
  tracing: RequestTracing;
}

/** Everything the proxy's routes use, built once by `startProxy` (or a test). */
export interface ProxyContext {
  router: Router;
  db: Database;
  authenticate: Authenticate;
  keys: KeyCache;
  /** Teams of keys (blocked or not); `/team/block` and `/team/unblock` invalidate it. */
  teams: TeamCache;
  /** Users, organizations and customers as the call path reads their budgets (and a customer's block). */
  owners: OwnerCaches;
  /**
   * A management route changed users, teams, memberships or organizations: cached identity lookups of
   * this process are dropped and other processes told (as a key or team invalidation does).
   */
  authChanged(): void;
  admit: Admit;
  /** JWT auth (`enable_jwt_auth`); the mapping routes clear its cached mappings when they change one. */
  jwt?: JwtGate | undefined;
  readiness: readonly ReadinessCheck[];
  spendStats(): SpendStats;
  /** Epoch milliseconds. */
  now: () => number;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** How far a stream's upstream is read after its client left; absent: the defaults. */
  disconnectRead?: DisconnectRead | undefined;
  /** `send_timeout` in ms: how long a stream waits for a client that reads nothing; absent: 60 s. */
  sendTimeoutMs?: number | undefined;
  version: string;
  /** Logs, `/metrics` and request spans; absent: none of them (an app built bare, for tests). */
  observability?: ProxyObservability | undefined;
  /** `general_settings.pass_through_endpoints`; absent: none. */
  passThrough?: readonly PassThroughEndpoint[] | undefined;
  /** Stored `router_settings` shared by every process (`/config/update`); absent in bare test contexts. */
  settings?: SettingsSync | undefined;
}
