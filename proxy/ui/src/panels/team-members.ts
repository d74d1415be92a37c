import { h } from '../dom.js';
import type { TeamRow } from './teams.js';

/** A team's members, each with a remove button, and a small form to add one. */
export function membersCell(
  team: TeamRow,
  act: (path: string, payload: Record<string, string>) => Promise<void>,
): HTMLTableCellElement {
  const input = h('input', {
    type: 'text',
    placeholder: 'user id',
    'aria-label': `Add a member to ${team.team_alias ?? team.team_id}`,
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
}
