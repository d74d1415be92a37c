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

/** Dollars with six decimals: small calls cost fractions of a cent, and tests read exact figures. */
export function dollars(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `$${value.toFixed(6)}`;
}

/** `a, b` or `all` for an empty model list. */
export function modelList(models: string[]): string {
  return models.length === 0 ? 'all' : models.join(', ');
}

/** A timestamp as `YYYY-MM-DD HH:MM:SS` UTC, or a dash. */
export function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? String(value)
    : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
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
