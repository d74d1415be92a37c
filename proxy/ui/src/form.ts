import { h } from './dom.js';

/** One field of a create or edit form, named as the API spells it. */
export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'number' | 'models' | 'select';
  placeholder?: string;
  /** For `select`: value and label of each choice (the first is usually `''`, none). */
  options?: () => Array<[string, string]>;
  /** Shown when creating only (an id, an expiry from now). */
  createOnly?: boolean;
}

type Values = Record<string, unknown>;

/** A field's value from the API as the input shows it. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The input's text as the API takes it: a number, a list, a string; null when empty. */
function parsed(spec: FieldSpec, text: string): unknown {
  if (spec.kind === 'models') {
    return text
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
  }
  if (text === '') return null;
  return spec.kind === 'number' ? Number(text) : text;
}

/**
 * A create form (`initial` absent: the fields filled in are sent) or an edit form (`initial` the
 * object: the fields changed are sent, an emptied one as null so the API clears it).
 */
export function entityForm(options: {
  testid: string;
  title: string;
  fields: FieldSpec[];
  initial?: Values;
  submit: string;
  onSubmit(body: Values): Promise<void>;
  onCancel(): void;
}): HTMLFormElement {
  const { testid, fields, initial } = options;
  const inputs = new Map<FieldSpec, HTMLInputElement | HTMLSelectElement>();
  for (const spec of fields) {
    if (spec.createOnly && initial) continue;
    const attrs = { name: spec.name, 'data-testid': `${testid}-${spec.name}` };
    const input =
      spec.kind === 'select'
        ? h(
            'select',
            attrs,
            ...(spec.options?.() ?? []).map(([value, label]) =>
              h('option', { value, selected: shown(initial?.[spec.name]) === value }, label),
            ),
          )
        : h('input', {
            ...attrs,
            type: spec.kind === 'number' ? 'number' : 'text',
            placeholder: spec.placeholder ?? '',
            value: shown(initial?.[spec.name]),
            ...(spec.kind === 'number' && { step: 'any', min: 0 }),
          });
    inputs.set(spec, input);
  }
  const form = h(
    'form',
    { class: 'entity-form', 'data-testid': testid },
    h('h3', {}, options.title),
    h('div', { class: 'fields' }, ...[...inputs].map(([spec, input]) => h('label', {}, spec.label, input))),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', 'data-testid': `${testid}-submit` }, options.submit),
      h('button', { type: 'button', 'data-testid': `${testid}-cancel`, onclick: options.onCancel }, 'Cancel'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body: Values = {};
    for (const [spec, input] of inputs) {
      const text = input.value.trim();
      if (!initial) {
        const value = parsed(spec, text);
        if (value !== null && !(Array.isArray(value) && value.length === 0)) body[spec.name] = value;
      } else if (text !== shown(initial[spec.name])) {
        body[spec.name] = parsed(spec, text);
      }
    }
    void options.onSubmit(body);
  });
  return form;
}
