import type { FieldSpec } from '../form.js';

/** The fields of `/team/new` and `/team/update` the page edits. */
export const TEAM_FIELDS: FieldSpec[] = [
  { name: 'team_alias', label: 'Alias', kind: 'text', placeholder: 'e.g. Search' },
  { name: 'team_id', label: 'Team id', kind: 'text', placeholder: 'empty: generated', createOnly: true },
  { name: 'models', label: 'Models', kind: 'models', placeholder: 'comma-separated; empty: all' },
  { name: 'max_budget', label: 'Budget ($)', kind: 'number' },
  { name: 'budget_duration', label: 'Budget period', kind: 'text', placeholder: 'e.g. 30d, 1mo' },
  { name: 'soft_budget', label: 'Soft budget ($)', kind: 'number' },
  { name: 'rpm_limit', label: 'RPM', kind: 'number' },
  { name: 'tpm_limit', label: 'TPM', kind: 'number' },
];
