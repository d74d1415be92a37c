import cluster, { type Worker } from 'node:cluster';
import { loadConfigFile, parseSettings, redisOptionsFromSettings } from '@svc/router/config';
import { generalSettingsSchema, resolveProxySettings } from '../config/general-settings.js';

/** What a worker tells the primary once it serves. */
export interface ListeningMessage {
  type: 'svc-router:listening';
  url: string;
}

export function isListeningMessage(message: unknown): message is ListeningMessage {
  return (message as ListeningMessage | null)?.type === 'svc-router:listening';
}

/**
 * Why `workers` processes cannot share this config, or undefined when they can: the embedded database
 * (PGlite) belongs to one process, so several need Postgres. A config without Redis is allowed, with a
 * warning: cooldowns, rate limits and cached answers are then each worker's own.
 */
export function clusterProblems(
  configPath: string,
  env: NodeJS.ProcessEnv,
  workers: number,
): { error?: string; warning?: string } {
  const loaded = loadConfigFile(configPath, { env, generalSettings: generalSettingsSchema });
  const settings = resolveProxySettings(loaded.generalSettings, loaded.env, loaded.dir);
  if (!settings.databaseUrl)
    return {
      error: `--workers ${workers} needs a database every worker can reach: set general_settings.database_url or DATABASE_URL (the embedded database belongs to one process)`,
    };
  if (!redisOptionsFromSettings(parseSettings(loaded.routerSettings, loaded.env)))
    return {
      warning: `${workers} workers without Redis: cooldowns, key rate limits and cached answers are each worker's own; set router_settings.redis_url to share them`,
    };
  return {};
}

/** Milliseconds before restarting a worker, given how many died in the last minute (1 s .. 30 s). */
export function restartDelayMs(recentDeaths: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, recentDeaths - 1));
}

export interface PrimaryOptions {
  workers: number;
  /** Lines for the operator. */
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs the cluster primary: forks `workers` processes that each run the proxy on the same port (the
 * primary accepts and hands connections out). Prints `listening on` once every worker serves.
 * SIGTERM/SIGINT is passed to every worker, which drains and flushes; resolves 0 when all exited 0.
 * A worker that dies unexpectedly is restarted after a backoff; one that dies before the cluster first
 * served means the config cannot serve (resolves 1 after stopping the rest).
 */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    let failed = false;
    let ready = false;
    const listening = new Set<number>();
    const deaths: number[] = [];
    const restarts = new Set<NodeJS.Timeout>();
    const fork = () => cluster.fork();
    const alive = () => Object.keys(cluster.workers ?? {}).length;
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      // a worker due to restart is not restarted, and its timer must not keep the primary alive
      for (const timer of restarts) clearTimeout(timer);
      restarts.clear();
      options.out(`svc-router: ${reason}, draining ${alive()} workers`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      if (alive() === 0) resolve(failed ? 1 : 0);
    };
    cluster.on('message', (worker: Worker, message: unknown) => {
      if (!isListeningMessage(message)) return;
      listening.add(worker.id);
      options.err(`svc-router: worker ${worker.process.pid} serving`);
      if (!ready && listening.size >= options.workers) {
        ready = true;
        options.out(`svc-router listening on ${message.url} (${options.workers} workers)`);
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      listening.delete(worker.id);
      const clean = code === 0 && !signal;
      if (!clean) failed ||= stopping;
      if (stopping) {
        if (alive() === 0) resolve(failed ? 1 : 0);
        return;
      }
      options.err(`svc-router: worker ${worker.process.pid} exited (${signal ?? `code ${code}`})`);
      if (!ready) {
        failed = true;
        stop('a worker could not start');
        return;
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths[0]! < now - 60_000) deaths.shift();
      const delay = restartDelayMs(deaths.length);
      options.err(`svc-router: restarting it in ${delay} ms`);
      // not unref'd: while every worker is down this timer is what keeps the primary alive
      const timer = setTimeout(() => {
        restarts.delete(timer);
        fork();
      }, delay);
      restarts.add(timer);
    });
    // `on`: a repeated SIGTERM must not kill the primary while its workers drain
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    for (let i = 0; i < options.workers; i++) fork();
  });
}
