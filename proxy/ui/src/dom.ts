import { fullTime, relativeTime, shorten } from './format.js';

/** Attribute values; a function is an event listener (`onclick`), `false`/`null`/`undefined` omit it. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;
export type Child = Node | string | number | null | undefined | false;

function apply(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element. Styling goes through `class` only: the page's CSP refuses inline styles. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

/** An SVG element (presentation attributes such as `fill` are not inline styles, so CSP allows them). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(el, attrs, children);
  return el;
}

/** A time on one line, relative (`5 min ago`, `in 3 h`), with the exact UTC time as its title. */
export function timeText(value: string | number | null | undefined, testid?: string): HTMLElement | string {
  if (value === null || value === undefined || value === '') return '—';
  return h(
    'time',
    {
      class: 'nowrap',
      title: fullTime(value),
      datetime: new Date(value).toISOString(),
      'data-testid': testid,
    },
    relativeTime(value),
  );
}

/** A long name (a deployment id, a hash) cut to `max` characters, the whole of it in its title. */
export function shortText(value: string, max = 24, attrs: Attrs = {}): HTMLElement {
  return h('span', { class: 'nowrap', title: value, ...attrs }, shorten(value, max));
}

/** A name with its id under it, smaller: aliases first, the id when there is no alias. */
export function named(alias: string | null | undefined, id: string, idMax = 14): HTMLElement {
  return alias
    ? h(
        'span',
        { class: 'named' },
        h('strong', {}, alias),
        h('small', { class: 'mono', title: id }, shorten(id, idMax)),
      )
    : h('span', { class: 'named' }, h('strong', { class: 'mono', title: id }, shorten(id, idMax + 6)));
}

/** A badge: `kind` is one of the `.state-*` classes of app.css. */
export function badge(text: string, kind: string, testid?: string): HTMLElement {
  return h('span', { class: `badge state-${kind}`, 'data-testid': testid }, text);
}

/** A panel: a titled section with a status line for errors. */
export function panel(
  id: string,
  title: string,
): { section: HTMLElement; body: HTMLElement; status: HTMLElement } {
  const status = h('p', { class: 'status', 'data-testid': `${id}-error`, role: 'alert', hidden: true });
  const body = h('div', { class: 'panel-body' });
  const section = h(
    'section',
    { class: 'panel', id, 'data-testid': `${id}-panel` },
    h('h2', {}, title),
    status,
    body,
  );
  return { section, body, status };
}

/** Shows `message` in a panel's status line, or hides it when null. */
export function showStatus(status: HTMLElement, message: string | null): void {
  status.textContent = message ?? '';
  status.hidden = message === null;
}
