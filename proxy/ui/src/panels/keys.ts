import { api, describeError } from '../api.js';
import { dollars, h, modelList, panel, showStatus, when } from '../dom.js';

/** One row of `GET /key/list`. */
export interface KeyRow {
  key_hash: string;
  key_alias: string | null;
  models: string[];
  team_id: string | null;
  user_id: string | null;
  organization_id: string | null;
  spend: number;
  max_budget: number | null;
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

function field(name: string, label: string, type = 'text', placeholder = ''): HTMLLabelElement {
  return h(
    'label',
    {},
    label,
    h('input', {
      name,
      type,
      placeholder,
      'data-testid': `key-new-${name}`,
      ...(type === 'number' && { step: 'any', min: 0 }),
    }),
  );
}

/** The body of `POST /key/generate` from the form: empty fields are left out. */
function generateBody(form: HTMLFormElement): Record<string, unknown> {
  const values = new FormData(form);
  const text = (name: string) => String(values.get(name) ?? '').trim();
  const body: Record<string, unknown> = {};
  for (const name of ['key_alias', 'team_id', 'user_id', 'duration']) if (text(name)) body[name] = text(name);
  for (const name of ['max_budget', 'rpm_limit', 'tpm_limit'])
    if (text(name)) body[name] = Number(text(name));
  const models = text('models')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (models.length > 0) body.models = models;
  return body;
}

/** Keys: create one (shown once), list them with budget and spend, revoke with a confirm step. */
export function keysPanel(): { section: HTMLElement } {
  const { section, body, status } = panel('keys', 'Keys');
  let page = 1;
  const created = h('div', { class: 'created', 'data-testid': 'key-created', hidden: true });
  const list = h('div', {});

  const showCreated = (key: string) => {
    const copied = h('span', { class: 'hint', 'data-testid': 'key-copied' });
    created.replaceChildren(
      h('p', {}, 'New key (shown once; copy it now):'),
      h('code', { 'data-testid': 'key-created-value' }, key),
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'key-copy',
          onclick: () =>
            void navigator.clipboard.writeText(key).then(
              () => (copied.textContent = 'Copied.'),
              () => (copied.textContent = 'Copy failed; select the key and copy it by hand.'),
            ),
        },
        'Copy',
      ),
      h(
        'button',
        { type: 'button', 'data-testid': 'key-created-dismiss', onclick: () => hideCreated() },
        'Done',
      ),
      copied,
    );
    created.hidden = false;
  };
  const hideCreated = () => {
    created.replaceChildren();
    created.hidden = true;
  };

  const revokeCell = (key: KeyRow): HTMLTableCellElement => {
    const cell = h('td', {});
    const ask = () =>
      cell.replaceChildren(
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'data-testid': `key-revoke-confirm-${key.key_hash}`,
            onclick: () => void revoke(),
          },
          'Confirm revoke',
        ),
        h(
          'button',
          { type: 'button', 'data-testid': `key-revoke-cancel-${key.key_hash}`, onclick: () => initial() },
          'Cancel',
        ),
      );
    const initial = () =>
      cell.replaceChildren(
        h('button', { type: 'button', 'data-testid': `key-revoke-${key.key_hash}`, onclick: ask }, 'Revoke'),
      );
    const revoke = async () => {
      try {
        await api('POST', '/key/delete', { keys: [key.key_hash] });
        showStatus(status, null);
        await refresh();
      } catch (error) {
        showStatus(status, describeError(error));
      }
    };
    initial();
    return cell;
  };

  const render = (result: KeyPage) => {
    const pages = Math.max(1, Math.ceil(result.total / result.size));
    list.replaceChildren(
      h(
        'table',
        { 'data-testid': 'key-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...[
              'Alias',
              'Key hash',
              'Team',
              'User',
              'Models',
              'Spend',
              'Budget',
              'RPM / TPM',
              'Expires',
              'Created',
              '',
            ].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          ...result.data.map((key) =>
            h(
              'tr',
              { 'data-testid': `key-row-${key.key_hash}`, class: key.blocked ? 'blocked' : '' },
              h('td', { 'data-testid': `key-alias-${key.key_hash}` }, key.key_alias ?? '—'),
              h('td', { class: 'mono', title: key.key_hash }, `${key.key_hash.slice(0, 12)}…`),
              h('td', {}, key.team_id ?? '—'),
              h('td', {}, key.user_id ?? '—'),
              h('td', {}, modelList(key.models)),
              h('td', { class: 'num' }, dollars(key.spend)),
              h('td', { class: 'num' }, dollars(key.max_budget)),
              h('td', { class: 'num' }, `${key.rpm_limit ?? '—'} / ${key.tpm_limit ?? '—'}`),
              h('td', {}, when(key.expires)),
              h('td', {}, when(key.created_at)),
              revokeCell(key),
            ),
          ),
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
      render(await api<KeyPage>('GET', `/key/list?page=${page}&size=${PAGE_SIZE}`));
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };
  const go = async (to: number) => {
    page = to;
    await refresh();
  };

  const form = h(
    'form',
    { class: 'inline-form', 'data-testid': 'key-new-form' },
    field('key_alias', 'Alias'),
    field('models', 'Models', 'text', 'comma-separated; empty: all'),
    field('team_id', 'Team id'),
    field('user_id', 'User id'),
    field('max_budget', 'Max budget ($)', 'number'),
    field('rpm_limit', 'RPM', 'number'),
    field('tpm_limit', 'TPM', 'number'),
    field('duration', 'Duration', 'text', 'e.g. 30d'),
    h('button', { type: 'submit', 'data-testid': 'key-create-submit' }, 'Create key'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      try {
        const result = await api<{ key: string }>('POST', '/key/generate', generateBody(form));
        form.reset();
        showCreated(result.key);
        showStatus(status, null);
        await refresh();
      } catch (error) {
        showStatus(status, describeError(error));
      }
    })();
  });

  body.append(form, created, list);
  void refresh();
  return { section };
}
