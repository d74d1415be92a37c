import { h } from './dom.js';

/** The box that shows a new key's secret once, with a copy button; `show` fills it, Done empties it. */
export function secretBox(): { box: HTMLElement; show(title: string, secret: string): void } {
  const box = h('div', { class: 'created', 'data-testid': 'key-created', hidden: true });
  const hide = () => {
    box.replaceChildren();
    box.hidden = true;
  };
  const show = (title: string, secret: string) => {
    const copied = h('span', { class: 'hint', 'data-testid': 'key-copied' });
    box.replaceChildren(
      h('p', {}, `${title} (shown once; copy it now):`),
      h('code', { 'data-testid': 'key-created-value' }, secret),
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'key-copy',
          onclick: () =>
            void navigator.clipboard.writeText(secret).then(
              () => (copied.textContent = 'Copied.'),
              () => (copied.textContent = 'Copy failed; select the key and copy it by hand.'),
            ),
        },
        'Copy',
      ),
      h('button', { type: 'button', 'data-testid': 'key-created-dismiss', onclick: hide }, 'Done'),
      copied,
    );
    box.hidden = false;
    box.scrollIntoView({ block: 'nearest' });
  };
  return { box, show };
}
