import type { ResolvedSettings } from '@svc/router';
import { isCredentialKey, maskCredentials } from '@svc/router/config';

/**
 * Router settings read once, when the router and its store are built: changing them needs a restart
 * (the Redis connection, the key namespace every process shares, the HTTP pool size).
 */
export const FIXED_AT_START: readonly string[] = [
  'redis_host',
  'redis_port',
  'redis_password',
  'redis_url',
  'redis_startup_nodes',
  'max_connections_per_origin',
];

/** Logger objects (which a JSON body cannot carry) and call-record destinations (read at start). */
const CODE_ONLY = ['callbacks'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Paths under `value` holding a credential written out (not as `os.environ/NAME`). */
function literalCredentials(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => literalCredentials(item, `${path}[${i}]`));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const at = path ? `${path}.${key}` : key;
    if (isCredentialKey(key) && typeof inner === 'string' && !inner.startsWith('os.environ/')) return [at];
    return literalCredentials(inner, at);
  });
}

/**
 * What keeps an update of `router_settings` from being applied live, one line per field: a setting
 * fixed at start, a changed `cache_kwargs.namespace`, a logger object, or a credential written out
 * (stored settings hold `os.environ/NAME` references, never secrets). Empty: it may be applied.
 */
export function liveUpdateProblems(
  update: Readonly<Record<string, unknown>>,
  current: Readonly<ResolvedSettings>,
): string[] {
  const problems: string[] = [];
  for (const key of FIXED_AT_START)
    if (key in update)
      problems.push(
        `${key}: cannot change while running (read once, at start); restart the proxy to change it`,
      );
  for (const key of CODE_ONLY)
    if (key in update)
      problems.push(
        `${key}: call-record destinations are read from the config file at start (restart the proxy to change them), logger objects are set in code; not through /config/update`,
      );
  if ('cache_kwargs' in update) {
    const given = isPlainObject(update.cache_kwargs) ? update.cache_kwargs.namespace : undefined;
    if (given !== current.cache_kwargs?.namespace)
      problems.push(
        `cache_kwargs.namespace: cannot change while running (every process shares it); give the one in force, ${JSON.stringify(current.cache_kwargs?.namespace ?? null)}`,
      );
  }
  for (const at of literalCredentials(update, ''))
    problems.push(`${at}: give it as os.environ/NAME (secrets are not stored)`);
  return problems;
}

/**
 * The settings in force as an answer may show them: JSON data only (no logger or strategy objects),
 * no Redis address or password, every credential masked.
 */
export function settingsView(settings: Readonly<ResolvedSettings>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key.startsWith('redis_') || CODE_ONLY.includes(key) || value === undefined) continue;
    view[key] = key === 'routing_strategy' && typeof value !== 'string' ? 'custom' : value;
  }
  if (Array.isArray(view.routing_groups))
    view.routing_groups = view.routing_groups.map((group: Record<string, unknown>) =>
      group.routing_strategy === undefined || typeof group.routing_strategy === 'string'
        ? group
        : { ...group, routing_strategy: 'custom' },
    );
  if (isPlainObject(view.alerting_config) && view.alerting_config.webhook_url !== undefined)
    view.alerting_config = { ...view.alerting_config, webhook_url: '****' };
  return maskCredentials(view);
}
