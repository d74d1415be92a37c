import { api, describeError } from '../api.js';
import { dollars, h, modelList, panel, showStatus } from '../dom.js';

/** One row of `GET /team/list`. */
export interface TeamRow {
  team_id: string;
  team_alias: string | null;
  organization_id: string | null;
  models: string[];
  blocked: boolean;
  spend: number;
  max_budget: number | null;
  members: string[];
  created_at: string;
}

/** Teams: block and unblock, add and remove members, with spend against budget. */
export function teamsPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status } = panel('teams', 'Teams');

  const act = async (path: string, payload: Record<string, string>) => {
    try {
      await api('POST', path, payload);
      showStatus(status, null);
      await refresh();
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };

  const members = (team: TeamRow): HTMLTableCellElement => {
    const input = h('input', {
      type: 'text',
      placeholder: 'user id',
      'aria-label': `Add a member to ${team.team_id}`,
      'data-testid': `team-member-input-${team.team_id}`,
    });
    const add = h(
      'form',
      { class: 'inline-form' },
      input,
      h('button', { type: 'submit', 'data-testid': `team-member-add-${team.team_id}` }, 'Add'),
    );
    add.addEventListener('submit', (event) => {
      event.preventDefault();
      const user_id = input.value.trim();
      if (user_id) void act('/team/member_add', { team_id: team.team_id, user_id });
    });
    return h(
      'td',
      {},
      h(
        'ul',
        { class: 'members', 'data-testid': `team-members-${team.team_id}` },
        ...team.members.map((user_id) =>
          h(
            'li',
            {},
            user_id,
            ' ',
            h(
              'button',
              {
                type: 'button',
                class: 'small',
                'aria-label': `Remove ${user_id}`,
                onclick: () => void act('/team/member_delete', { team_id: team.team_id, user_id }),
              },
              '×',
            ),
          ),
        ),
      ),
      add,
    );
  };

  const render = (teams: TeamRow[]) => {
    body.replaceChildren(
      teams.length === 0
        ? h('p', {}, 'No teams. Create one with POST /team/new.')
        : h(
            'table',
            { 'data-testid': 'team-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...[
                  'Team',
                  'Alias',
                  'Organization',
                  'Models',
                  'Spend',
                  'Budget',
                  'Members',
                  'Status',
                  '',
                ].map((t) => h('th', {}, t)),
              ),
            ),
            h(
              'tbody',
              {},
              ...teams.map((team) =>
                h(
                  'tr',
                  { 'data-testid': `team-row-${team.team_id}`, class: team.blocked ? 'blocked' : '' },
                  h('td', { class: 'mono' }, team.team_id),
                  h('td', {}, team.team_alias ?? '—'),
                  h('td', {}, team.organization_id ?? '—'),
                  h('td', {}, modelList(team.models)),
                  h('td', { class: 'num' }, dollars(team.spend)),
                  h('td', { class: 'num' }, dollars(team.max_budget)),
                  members(team),
                  h(
                    'td',
                    {},
                    h(
                      'span',
                      {
                        class: `badge ${team.blocked ? 'state-cooling' : 'state-ok'}`,
                        'data-testid': `team-status-${team.team_id}`,
                      },
                      team.blocked ? 'blocked' : 'active',
                    ),
                  ),
                  h(
                    'td',
                    {},
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
                ),
              ),
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

  const reload = h(
    'button',
    { type: 'button', 'data-testid': 'teams-refresh', onclick: () => void refresh() },
    'Refresh',
  );
  section.insertBefore(reload, body);
  void refresh();
  return { section, refresh };
}
