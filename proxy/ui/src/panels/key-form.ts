import { directory } from '../directory.js';
import type { FieldSpec } from '../form.js';

/** The fields of `/key/generate` and `/key/update` the page edits. */
export const KEY_FIELDS: FieldSpec[] = [
  { name: 'key_alias', label: 'Alias', kind: 'text', placeholder: 'e.g. checkout-prod' },
  { name: 'team_id', label: 'Team', kind: 'select', options: teamChoices },
  { name: 'models', label: 'Models', kind: 'models', placeholder: 'comma-separated; empty: all' },
  { name: 'user_id', label: 'User id', kind: 'text' },
  { name: 'max_budget', label: 'Budget ($)', kind: 'number' },
  { name: 'budget_duration', label: 'Budget period', kind: 'text', placeholder: 'e.g. 30d, 1mo' },
  { name: 'soft_budget', label: 'Soft budget ($)', kind: 'number' },
  { name: 'rpm_limit', label: 'RPM', kind: 'number' },
  { name: 'tpm_limit', label: 'TPM', kind: 'number' },
  {
    name: 'duration',
    label: 'Expires after',
    kind: 'text',
    placeholder: 'e.g. 90d; empty: never',
    createOnly: true,
  },
];

/** No team, then every team by alias. */
function teamChoices(): Array<[string, string]> {
  const teams = [...directory.teams.values()].map((t): [string, string] => [
    t.team_id,
    t.team_alias ? `${t.team_alias} (${t.team_id})` : t.team_id,
  ]);
  return [['', '— no team —'], ...teams];
}
