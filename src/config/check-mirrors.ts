import { ConfigError } from '../errors/config-error.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { ResolvedSettings } from './settings-schema.js';

/**
 * Every `mirrors` entry must name two different model groups of the list, so a typo fails at
 * construction rather than by silently mirroring nothing.
 */
export function checkMirrorNames(settings: ResolvedSettings, groups: readonly string[]): void {
  const known = new Set(groups);
  const problems: string[] = [];
  settings.mirrors.forEach((entry, i) => {
    for (const field of ['model', 'to'] as const) {
      const name = entry[field];
      if (!known.has(name))
        problems.push(`mirrors[${i}].${field}: unknown model group \`${name}\`${didYouMean(name, groups)}`);
    }
    if (entry.model === entry.to) problems.push(`mirrors[${i}]: a model group cannot mirror to itself`);
  });
  if (problems.length > 0) throw new ConfigError('router settings', problems);
}
