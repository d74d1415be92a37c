import { api, describeError } from '../api.js';
import { type Budgeted, budgetView, overBudget } from '../budget.js';
import { directory } from '../directory.js';
import { badge, h, named, panel, showStatus, timeText } from '../dom.js';
import { entityForm } from '../form.js';
import { modelList } from '../format.js';
import { secretBox } from '../secret.js';
import { keyActions } from './key-actions.js';
import { KEY_FIELDS } from './key-form.js';

/** One row of `GET /key/list`. */
export interface KeyRow extends Budgeted {
  key_hash: string;
  key_alias: string | null;
  models: string[];
  team_id: string | null;
  user_id: string | null;
  organization_id: string | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  expires: string | null;
  blocked: boolean;
  created_at: string;
}

interface KeyPage {
  data: KeyRow[];
  total: number;
  page: number;
  size: number;
}

const PAGE_SIZE = 50;
const HEAD = ['Key', 'Team', 'Models', 'Spend / budget', 'RPM / TPM', 'Expires', 'Created', 'Status', ''];

function status(key: KeyRow): HTMLElement {
  const id = `key-status-${key.key_hash}`;
  if (key.blocked) return badge('blocked', 'cooling', id);
  if (overBudget(key)) return badge('over budget', 'cooling', id);
  if (key.expires && Date.parse(key.expires) <= Date.now()) return badge('expired', 'half_open', id);
  return badge('active', 'ok', id);
}

/** Keys: create and edit (a form), regenerate (the new secret shown once), block, revoke; paged. */
export function keysPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status: statusLine } = panel('keys', 'Keys');
  let page = 1;
  const secret = secretBox();
  const formSlot = h('div', {});
  const list = h('div', {});

  const run = async (call: () => Promise<unknown>) => {
    try {
      await call();
      showStatus(statusLine, null);
      await refresh();
    } catch (error) {
      showStatus(statusLine, describeError(error));
    }
  };
  const closeForm = () => formSlot.replaceChildren();
  const openForm = (key?: KeyRow) => {
    const form = entityForm({
      testid: 'key-form',
      title: key ? `Edit key ${key.key_alias ?? key.key_hash.slice(0, 8)}` : 'New key',
      fields: KEY_FIELDS,
      ...(key && { initial: key as unknown as Record<string, unknown> }),
      submit: key ? 'Save' : 'Create key',
      onCancel: closeForm,
      onSubmit: (fields) =>
        run(async () => {
          if (key && Object.keys(fields).length === 0) return closeForm();
          if (key) await api('POST', '/key/update', { key: key.key_hash, ...fields });
          else secret.show('New key', (await api<{ key: string }>('POST', '/key/generate', fields)).key);
          closeForm();
        }),
    });
    formSlot.replaceChildren(form);
    form.scrollIntoView({ block: 'nearest' });
    form.querySelector('input')?.focus();
  };

  const row = (key: KeyRow) =>
    h(
      'tr',
      {
        'data-testid': `key-row-${key.key_hash}`,
        class: [key.blocked && 'blocked', overBudget(key) && 'over'].filter(Boolean).join(' '),
      },
      h('td', { 'data-testid': `key-alias-${key.key_hash}` }, named(key.key_alias, key.key_hash, 10)),
      h(
        'td',
        { 'data-testid': `key-team-${key.key_hash}` },
        key.team_id ? directory.teamName(key.team_id) : '—',
      ),
      h('td', { class: 'models' }, modelList(key.models)),
      h('td', {}, budgetView(key, `key-budget-${key.key_hash}`)),
      h('td', { class: 'num nowrap' }, `${key.rpm_limit ?? '—'} / ${key.tpm_limit ?? '—'}`),
      h('td', {}, key.expires ? timeText(key.expires) : 'never'),
      h('td', {}, timeText(key.created_at)),
      h('td', {}, status(key)),
      keyActions(key, { edit: openForm, run, showSecret: secret.show }),
    );

  const render = (result: KeyPage) => {
    const pages = Math.max(1, Math.ceil(result.total / result.size));
    list.replaceChildren(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { 'data-testid': 'key-table' },
          h('thead', {}, h('tr', {}, ...HEAD.map((t) => h('th', {}, t)))),
          h('tbody', {}, ...result.data.map(row)),
        ),
      ),
      h(
        'p',
        { class: 'pager' },
        h('button', { type: 'button', disabled: page <= 1, onclick: () => void go(page - 1) }, 'Previous'),
        ` Page ${result.page} of ${pages} (${result.total} keys) `,
        h('button', { type: 'button', disabled: page >= pages, onclick: () => void go(page + 1) }, 'Next'),
      ),
    );
  };

  const refresh = async () => {
    try {
      const [result] = await Promise.all([
        api<KeyPage>('GET', `/key/list?page=${page}&size=${PAGE_SIZE}`),
        directory.load(),
      ]);
      render(result);
      showStatus(statusLine, null);
    } catch (error) {
      showStatus(statusLine, describeError(error));
    }
  };
  const go = async (to: number) => {
    page = to;
    await refresh();
  };

  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h(
      'button',
      { type: 'button', class: 'primary', 'data-testid': 'key-new', onclick: () => openForm() },
      'New key',
    ),
    h('button', { type: 'button', 'data-testid': 'keys-refresh', onclick: () => void refresh() }, 'Refresh'),
  );
  body.append(toolbar, secret.box, formSlot, list);
  return { section, refresh };
}
