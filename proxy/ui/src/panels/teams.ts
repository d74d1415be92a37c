import { api, describeError } from '../api.js';
import { type Budgeted, budgetView, overBudget } from '../budget.js';
import { badge, h, named, panel, showStatus } from '../dom.js';
import { entityForm } from '../form.js';
import { modelList } from '../format.js';
import { TEAM_FIELDS } from './team-form.js';
import { membersCell } from './team-members.js';

/** One row of `GET /team/list`. */
export interface TeamRow extends Budgeted {
  team_id: string;
  team_alias: string | null;
  organization_id: string | null;
  models: string[];
  blocked: boolean;
  rpm_limit: number | null;
  tpm_limit: number | null;
  members: string[];
  created_at: string;
}

const HEAD = ['Team', 'Models', 'Spend / budget', 'RPM / TPM', 'Members', 'Status', ''];

/** Teams: create and edit (a form), block and unblock, add and remove members; spend against budget. */
export function teamsPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status } = panel('teams', 'Teams');
  const formSlot = h('div', {});
  const list = h('div', {});

  const run = async (call: () => Promise<unknown>) => {
    try {
      await call();
      showStatus(status, null);
      await refresh();
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };
  const act = (path: string, payload: Record<string, string>) => run(() => api('POST', path, payload));
  const closeForm = () => formSlot.replaceChildren();
  const openForm = (team?: TeamRow) => {
    const form = entityForm({
      testid: 'team-form',
      title: team ? `Edit team ${team.team_alias ?? team.team_id}` : 'New team',
      fields: TEAM_FIELDS,
      ...(team && { initial: team as unknown as Record<string, unknown> }),
      submit: team ? 'Save' : 'Create team',
      onCancel: closeForm,
      onSubmit: (fields) =>
        run(async () => {
          if (team && Object.keys(fields).length > 0)
            await api('POST', '/team/update', { team_id: team.team_id, ...fields });
          if (!team) await api('POST', '/team/new', fields);
          closeForm();
        }),
    });
    formSlot.replaceChildren(form);
    form.scrollIntoView({ block: 'nearest' });
    form.querySelector('input')?.focus();
  };

  const row = (team: TeamRow) =>
    h(
      'tr',
      {
        'data-testid': `team-row-${team.team_id}`,
        class: [team.blocked && 'blocked', overBudget(team) && 'over'].filter(Boolean).join(' '),
      },
      h('td', { 'data-testid': `team-name-${team.team_id}` }, named(team.team_alias, team.team_id)),
      h('td', { class: 'models' }, modelList(team.models)),
      h('td', {}, budgetView(team, `team-budget-${team.team_id}`)),
      h('td', { class: 'num nowrap' }, `${team.rpm_limit ?? '—'} / ${team.tpm_limit ?? '—'}`),
      membersCell(team, act),
      h(
        'td',
        {},
        team.blocked
          ? badge('blocked', 'cooling', `team-status-${team.team_id}`)
          : overBudget(team)
            ? badge('over budget', 'cooling', `team-status-${team.team_id}`)
            : badge('active', 'ok', `team-status-${team.team_id}`),
      ),
      h(
        'td',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', 'data-testid': `team-edit-${team.team_id}`, onclick: () => openForm(team) },
          'Edit',
        ),
        h(
          'button',
          {
            type: 'button',
            'data-testid': `team-toggle-${team.team_id}`,
            onclick: () =>
              void act(team.blocked ? '/team/unblock' : '/team/block', { team_id: team.team_id }),
          },
          team.blocked ? 'Unblock' : 'Block',
        ),
      ),
    );

  const render = (teams: TeamRow[]) => {
    list.replaceChildren(
      teams.length === 0
        ? h('p', {}, 'No teams yet.')
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { 'data-testid': 'team-table' },
              h('thead', {}, h('tr', {}, ...HEAD.map((t) => h('th', {}, t)))),
              h('tbody', {}, ...teams.map(row)),
            ),
          ),
    );
  };

  const refresh = async () => {
    try {
      render((await api<{ data: TeamRow[] }>('GET', '/team/list')).data);
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };

  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h(
      'button',
      { type: 'button', class: 'primary', 'data-testid': 'team-new', onclick: () => openForm() },
      'New team',
    ),
    h('button', { type: 'button', 'data-testid': 'teams-refresh', onclick: () => void refresh() }, 'Refresh'),
  );
  body.append(toolbar, formSlot, list);
  return { section, refresh };
}
