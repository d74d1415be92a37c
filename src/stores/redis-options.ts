import { ConfigError } from '../errors/config-error.js';
import { namespaceProblem } from './store-keys.js';

/** One node of a Redis Cluster to discover the cluster from. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * How to reach Redis and how long to wait for it. Give `url`, or `host`/`port`, or `cluster`. Every
 * time is in milliseconds.
 */
export interface RedisStoreOptions {
  /**
   * `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. Not with `host` or `cluster`.
   * @example 'redis://:s3cret@redis.internal:6379/0'
   */
  url?: string;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 6379 */
  port?: number;
  /** ACL user name (Redis 6+). */
  username?: string;
  /** Never shown in errors, logs, events or `util.inspect`. */
  password?: string;
  /** A Redis Cluster: the nodes it is discovered from (`password` applies to every node). */
  cluster?: { startupNodes: readonly RedisNode[] };
  /**
   * Prefix of every key, `<namespace>:<key>`: routers that should share state use the same one, and
   * unrelated fleets on one Redis use different ones. No `{` or `}`.
   * @default 'svc-router'
   */
  namespace?: string;
  /**
   * How long a command may take before it fails (the caller then goes on with its local state).
   * @default 250
   */
  commandTimeoutMs?: number;
  /** How long connecting may take before it is retried. @default 1000 */
  connectTimeoutMs?: number;
  /**
   * After a command times out, every command fails at once for this long instead of each waiting for
   * its timeout; then commands are tried again.
   * @default 1000
   */
  backoffMs?: number;
  /**
   * Commands sent and not yet answered (timed-out ones included), at most; beyond it a command fails at
   * once. A backstop for memory while Redis is slow or silent (the timeout and back-off keep the count
   * far lower); high enough that a burst of concurrent calls on a healthy Redis never reaches it.
   * @default 10000
   */
  maxPending?: number;
}

export const DEFAULT_NAMESPACE = 'svc-router';

/** Where to connect, checked. */
export type RedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'host'; host: string; port: number }
  | { kind: 'cluster'; nodes: readonly RedisNode[] };

/** The options with defaults filled in, and what may be shown of them. */
export interface ResolvedRedisOptions {
  target: RedisTarget;
  username: string | undefined;
  password: string | undefined;
  namespace: string;
  commandTimeoutMs: number;
  connectTimeoutMs: number;
  backoffMs: number;
  maxPending: number;
  /** Where it connects, without credentials: `127.0.0.1:6379`, `cluster 10.0.0.1:7000 (+2)`. */
  shown: string;
  /** The values to remove from any text the store passes on (the password, in every encoding). */
  secrets: readonly string[];
}

const URL_SHAPE = 'expected redis://[[user]:password@]host[:port][/db] or rediss://...';

/**
 * Why a Redis URL cannot be used, or undefined when it can. The URL itself is never quoted: it may hold
 * a password.
 */
export function redisUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return `not a URL; ${URL_SHAPE}`;
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    return `unsupported scheme \`${parsed.protocol}\`; ${URL_SHAPE}`;
  if (!parsed.hostname) return `no host; ${URL_SHAPE}`;
  if (parsed.pathname.length > 1 && !/^\/\d+$/.test(parsed.pathname))
    return 'the path must be a database number (`/0`)';
  return undefined;
}

/** The URL with its password (if any) shown as `****`: what may be printed of it. */
export function redisUrlWithoutPassword(url: string): string {
  if (!URL.canParse(url)) return '****';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '****';
  return parsed.toString();
}

/** Why a port cannot be used, or undefined. */
export function portProblem(port: number): string | undefined {
  return Number.isInteger(port) && port >= 1 && port <= 65_535
    ? undefined
    : 'expected an integer from 1 to 65535';
}

function positive(
  problems: string[],
  name: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || value > max) {
    problems.push(`${name}: expected a positive number of at most ${max}`);
    return fallback;
  }
  return value;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function targetOf(options: RedisStoreOptions, problems: string[]): RedisTarget {
  const given = [
    options.url !== undefined && 'url',
    (options.host !== undefined || options.port !== undefined) && 'host/port',
    options.cluster !== undefined && 'cluster',
  ].filter(Boolean);
  if (given.length > 1) problems.push(`give one of url, host/port or cluster, not ${given.join(' and ')}`);
  if (options.url !== undefined) {
    const problem = redisUrlProblem(options.url);
    if (problem) problems.push(`url: ${problem}`);
    return { kind: 'url', url: options.url };
  }
  if (options.cluster !== undefined) {
    const nodes = options.cluster.startupNodes;
    if (!Array.isArray(nodes) || nodes.length === 0)
      problems.push('cluster.startupNodes: expected at least one { host, port }');
    else
      nodes.forEach((node, i) => {
        if (typeof node?.host !== 'string' || node.host === '')
          problems.push(`cluster.startupNodes[${i}].host: expected a host name`);
        const problem = portProblem(node?.port);
        if (problem) problems.push(`cluster.startupNodes[${i}].port: ${problem}`);
      });
    return { kind: 'cluster', nodes: nodes ?? [] };
  }
  const port = options.port ?? 6379;
  const problem = portProblem(port);
  if (problem) problems.push(`port: ${problem}`);
  if (options.host === '') problems.push('host: expected a host name');
  return { kind: 'host', host: options.host ?? '127.0.0.1', port };
}

function shownTarget(target: RedisTarget): string {
  if (target.kind === 'host') return `${target.host}:${target.port}`;
  if (target.kind === 'cluster') {
    const [first] = target.nodes;
    const more = target.nodes.length > 1 ? ` (+${target.nodes.length - 1})` : '';
    return `cluster ${first?.host}:${first?.port}${more}`;
  }
  if (!URL.canParse(target.url)) return 'redis';
  const url = new URL(target.url);
  return `${url.hostname}:${url.port || 6379}`;
}

/**
 * Checks RedisStore options and fills in defaults. Throws a ConfigError naming every bad option; a
 * password or URL is never quoted.
 */
export function resolveRedisOptions(options: RedisStoreOptions): ResolvedRedisOptions {
  const problems: string[] = [];
  const target = targetOf(options, problems);
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem) problems.push(`namespace: ${nsProblem}`);
  const resolved: ResolvedRedisOptions = {
    target,
    username: options.username,
    password: options.password,
    namespace,
    commandTimeoutMs: positive(problems, 'commandTimeoutMs', options.commandTimeoutMs, 250, 60_000),
    connectTimeoutMs: positive(problems, 'connectTimeoutMs', options.connectTimeoutMs, 1_000, 60_000),
    backoffMs: positive(problems, 'backoffMs', options.backoffMs, 1_000, 600_000),
    maxPending: Math.floor(positive(problems, 'maxPending', options.maxPending, 10_000, 1_000_000)),
    shown: shownTarget(target),
    secrets: [],
  };
  if (problems.length > 0) throw new ConfigError('RedisStore options', problems);
  const urlPassword = target.kind === 'url' && URL.canParse(target.url) ? new URL(target.url).password : '';
  resolved.secrets = [options.password, urlPassword, decoded(urlPassword)].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  return resolved;
}
