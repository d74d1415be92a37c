import { ConfigError } from './config-error.js';
import { shownSetting } from './parse-settings.js';
import type { ResolvedSettings } from './settings-schema.js';

/**
 * Settings of the contract that this version accepts in config files but cannot honour yet. Failing at
 * construction is better than a setting that silently does nothing.
 */
export function assertSupportedSettings(settings: ResolvedSettings): void {
  const problems: string[] = [];
  const strategy = settings.routing_strategy;
  if (typeof strategy === 'string' && strategy !== 'simple-shuffle') {
    problems.push(
      `routing_strategy: \`${shownSetting(settings, ['routing_strategy'], strategy)}\` is not available in this version yet (simple-shuffle or a strategy object is)`,
    );
  }
  if (settings.routing_groups?.length) problems.push('routing_groups: not available in this version yet');
  if (problems.length > 0) throw new ConfigError('router settings', problems);
}
