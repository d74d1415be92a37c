import { ConfigError } from './config-error.js';
import { didYouMean } from './did-you-mean.js';
import type { ResolvedSettings } from './settings-schema.js';

const LISTS = ['fallbacks', 'context_window_fallbacks', 'content_policy_fallbacks'] as const;

/**
 * Every model named in a fallback list must be a model group of the list (or, with
 * `pass_through_all_models`, a `<provider>/<model>`), so a typo fails at construction rather than on the
 * first outage.
 */
export function checkFallbackNames(settings: ResolvedSettings, groups: readonly string[]): void {
  const known = new Set(groups);
  const ok = (name: string) => known.has(name) || (settings.pass_through_all_models && name.includes('/'));
  const problems: string[] = [];
  for (const list of LISTS) {
    settings[list].forEach((entry, i) => {
      for (const [from, targets] of Object.entries(entry)) {
        if (from !== '*' && !known.has(from)) {
          problems.push(`${list}[${i}]: unknown model group \`${from}\`${didYouMean(from, groups)}`);
        }
        for (const to of targets) {
          if (!ok(to))
            problems.push(`${list}[${i}].${from}: unknown model group \`${to}\`${didYouMean(to, groups)}`);
        }
      }
    });
  }
  for (const to of settings.default_fallbacks) {
    if (!ok(to)) problems.push(`default_fallbacks: unknown model group \`${to}\`${didYouMean(to, groups)}`);
  }
  if (problems.length > 0) throw new ConfigError('router settings', problems);
}
