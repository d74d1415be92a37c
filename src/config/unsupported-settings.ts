import { ConfigError } from './config-error.js';
import type { ResolvedSettings } from './settings-schema.js';

/**
 * Settings of the contract that this version accepts in config files but cannot honour yet. Failing at
 * construction is better than a setting that silently does nothing.
 */
export function assertSupportedSettings(settings: ResolvedSettings): void {
  const problems: string[] = [];
  if (settings.cache_responses) problems.push('cache_responses: not available in this version yet');
  for (const key of ['redis_host', 'redis_url'] as const) {
    if (settings[key] !== undefined)
      problems.push(`${key}: a Redis store is not available in this version yet`);
  }
  if (settings.alerting_config) problems.push('alerting_config: not available in this version yet');
  if (problems.length > 0) throw new ConfigError('router settings', problems);
}
