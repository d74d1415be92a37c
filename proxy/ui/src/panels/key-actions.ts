import { api } from '../api.js';
import { h } from '../dom.js';
import type { KeyRow } from './keys.js';

/** What a row's buttons do in the panel. */
export interface KeyActionHooks {
  edit(key: KeyRow): void;
  /** Runs a call, then shows its error or refreshes the list. */
  run(call: () => Promise<unknown>): Promise<void>;
  /** Shows a regenerated key's new secret once. */
  showSecret(title: string, secret: string): void;
}

/** A button that asks to confirm in place before `act` (revoke, regenerate). */
function confirmed(
  cell: HTMLElement,
  label: string,
  confirmLabel: string,
  testid: string,
  act: () => Promise<void>,
  reset: () => void,
): HTMLButtonElement {
  const ask = () =>
    cell.replaceChildren(
      h(
        'button',
        { type: 'button', class: 'danger', 'data-testid': `${testid}-confirm`, onclick: () => void act() },
        confirmLabel,
      ),
      h('button', { type: 'button', 'data-testid': `${testid}-cancel`, onclick: reset }, 'Cancel'),
    );
  return h('button', { type: 'button', 'data-testid': testid, onclick: ask }, label);
}

/** Edit, Regenerate (confirm; the new secret shown once), Block/Unblock and Revoke (confirm). */
export function keyActions(key: KeyRow, hooks: KeyActionHooks): HTMLTableCellElement {
  const cell = h('td', { class: 'actions' });
  const id = key.key_hash;
  const initial = () =>
    cell.replaceChildren(
      h(
        'button',
        { type: 'button', 'data-testid': `key-edit-${id}`, onclick: () => hooks.edit(key) },
        'Edit',
      ),
      confirmed(
        cell,
        'Regenerate',
        'Confirm regenerate',
        `key-regenerate-${id}`,
        async () => {
          await hooks.run(async () => {
            const result = await api<{ key: string }>('POST', '/key/regenerate', { key: id });
            hooks.showSecret(`New secret of ${key.key_alias ?? 'the key'}`, result.key);
          });
        },
        initial,
      ),
      h(
        'button',
        {
          type: 'button',
          'data-testid': `key-block-${id}`,
          onclick: () =>
            void hooks.run(() => api('POST', key.blocked ? '/key/unblock' : '/key/block', { key: id })),
        },
        key.blocked ? 'Unblock' : 'Block',
      ),
      confirmed(
        cell,
        'Revoke',
        'Confirm revoke',
        `key-revoke-${id}`,
        async () => {
          await hooks.run(() => api('POST', '/key/delete', { keys: [id] }));
        },
        initial,
      ),
    );
  initial();
  return cell;
}
