import { ConfigError } from '../errors/config-error.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { shownSetting } from './parse-settings.js';
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
        targets.forEach((to, j) => {
          if (ok(to)) return;
          const shown = shownSetting(settings, [list, i, from, j], to);
          const hint = shown === to ? didYouMean(to, groups) : '';
          problems.push(`${list}[${i}].${from}: unknown model group \`${shown}\`${hint}`);
        });
      }
    });
  }
  settings.default_fallbacks.forEach((to, j) => {
    if (ok(to)) return;
    const shown = shownSetting(settings, ['default_fallbacks', j], to);
    const hint = shown === to ? didYouMean(to, groups) : '';
    problems.push(`default_fallbacks: unknown model group \`${shown}\`${hint}`);
  });
  if (problems.length > 0) throw new ConfigError('router settings', problems);
}
