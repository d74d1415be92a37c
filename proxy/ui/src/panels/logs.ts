import { api, describeError } from '../api.js';
import { directory } from '../directory.js';
import { badge, h, panel, shortText, showStatus } from '../dom.js';
import { compactTime, fullTime, money } from '../format.js';

/** One row of `GET /spend/logs` (the fields the viewer shows). */
export interface SpendLog {
  call_id: string;
  key_hash: string | null;
  user_id: string | null;
  team_id: string | null;
  end_user: string | null;
  model_group: string | null;
  model_id: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  status: 'success' | 'failure';
  error_code: string | null;
  http_status: number | null;
  latency_ms: number | null;
  start_time: string;
  tags: string[] | null;
}

const PAGE_SIZE = 25;
const HEAD = [
  'Time (UTC)',
  'Key',
  'Team',
  'User',
  'Model',
  'Tokens in / out',
  'Cost',
  'Status',
  'Latency',
  'Tags',
];

function row(log: SpendLog): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-testid': `log-row-${log.call_id}`, class: log.status === 'failure' ? 'failed' : '' },
    h('td', { class: 'nowrap', title: fullTime(log.start_time) }, compactTime(log.start_time)),
    h('td', { class: 'nowrap', 'data-testid': `log-key-${log.call_id}` }, directory.keyName(log.key_hash)),
    h('td', { class: 'nowrap' }, directory.teamName(log.team_id)),
    h('td', {}, log.user_id ?? '—'),
    h(
      'td',
      { class: 'nowrap' },
      log.model_group ?? '—',
      ...(log.model_id && log.model_id !== log.model_group
        ? [h('br', {}), h('small', {}, shortText(log.model_id, 20))]
        : []),
    ),
    h('td', { class: 'num nowrap' }, `${log.prompt_tokens} / ${log.completion_tokens}`),
    h('td', { class: 'num', 'data-testid': `log-cost-${log.call_id}` }, money(log.cost)),
    h(
      'td',
      {},
      log.status === 'success'
        ? badge(String(log.http_status ?? 200), 'ok')
        : badge(`${log.http_status ?? ''} ${log.error_code ?? 'failed'}`.trim(), 'cooling'),
    ),
    h('td', { class: 'num nowrap' }, log.latency_ms === null ? '—' : `${Math.round(log.latency_ms)} ms`),
    h('td', {}, (log.tags ?? []).join(', ') || '—'),
  );
}

/** The spend log: every call, newest first, filtered by key, team, user, model, tag and days; paged. */
export function logsPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status } = panel('logs', 'Spend log');
  let page = 1;
  const select = (name: string, label: string) =>
    h('label', {}, label, h('select', { name, 'data-testid': `logs-filter-${name}` }));
  const input = (name: string, label: string, type = 'text') =>
    h('label', {}, label, h('input', { name, type, 'data-testid': `logs-filter-${name}` }));
  const filters = h(
    'form',
    { class: 'inline-form', 'data-testid': 'logs-filters' },
    select('key', 'Key'),
    select('team_id', 'Team'),
    input('user_id', 'User'),
    input('model', 'Model'),
    input('tag', 'Tag'),
    input('start_date', 'From', 'date'),
    input('end_date', 'To', 'date'),
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'logs-apply' }, 'Apply'),
    h('button', { type: 'reset', 'data-testid': 'logs-clear' }, 'Clear'),
  );
  const list = h('div', {});

  /** Fills the key and team choices by alias, keeping what was chosen. */
  const fillChoices = () => {
    const fill = (name: string, choices: Array<[string, string]>) => {
      const el = filters.querySelector<HTMLSelectElement>(`select[name="${name}"]`)!;
      const chosen = el.value;
      el.replaceChildren(
        ...[['', 'any'] as [string, string], ...choices].map(([value, text]) =>
          h('option', { value, selected: value === chosen }, text),
        ),
      );
    };
    fill(
      'key',
      [...directory.keys.values()].map((k) => [k.key_hash, k.key_alias ?? `${k.key_hash.slice(0, 12)}…`]),
    );
    fill(
      'team_id',
      [...directory.teams.values()].map((t) => [t.team_id, t.team_alias ?? t.team_id]),
    );
  };

  const refresh = async () => {
    try {
      const query = new URLSearchParams();
      for (const [name, value] of new FormData(filters))
        if (String(value).trim()) query.set(name, String(value).trim());
      query.set('limit', String(PAGE_SIZE + 1));
      query.set('offset', String((page - 1) * PAGE_SIZE));
      const [logs] = await Promise.all([api<SpendLog[]>('GET', `/spend/logs?${query}`), directory.load()]);
      fillChoices();
      const shown = logs.slice(0, PAGE_SIZE);
      const first = (page - 1) * PAGE_SIZE;
      list.replaceChildren(
        shown.length === 0
          ? h('p', { 'data-testid': 'logs-empty' }, 'No calls match these filters.')
          : h(
              'div',
              { class: 'table-scroll' },
              h(
                'table',
                { 'data-testid': 'log-table' },
                h('thead', {}, h('tr', {}, ...HEAD.map((t) => h('th', {}, t)))),
                h('tbody', {}, ...shown.map(row)),
              ),
            ),
        h(
          'p',
          { class: 'pager' },
          h(
            'button',
            {
              type: 'button',
              'data-testid': 'logs-prev',
              disabled: page <= 1,
              onclick: () => void go(page - 1),
            },
            'Previous',
          ),
          h(
            'span',
            { 'data-testid': 'logs-range' },
            shown.length === 0 ? ' no rows ' : ` rows ${first + 1}–${first + shown.length} `,
          ),
          h(
            'button',
            {
              type: 'button',
              'data-testid': 'logs-next',
              disabled: logs.length <= PAGE_SIZE,
              onclick: () => void go(page + 1),
            },
            'Next',
          ),
        ),
      );
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };
  const go = async (to: number) => {
    page = to;
    await refresh();
  };
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    void go(1);
  });
  filters.addEventListener('reset', () => setTimeout(() => void go(1)));

  body.append(filters, list);
  return { section, refresh };
}
