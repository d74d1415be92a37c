import type { InputItem } from '@svc/router/responses';
import { ProxyError } from '../http/proxy-error.js';

/** What `GET /v1/responses/{id}/input_items` asks for (OpenAI's query parameters). */
export interface InputItemsQuery {
  /** 1 to 100; 20 when not given. */
  limit: number;
  /** `desc` (newest first) when not given, as OpenAI's API reference has it. */
  order: 'asc' | 'desc';
  /** An item id: the items after it, in `order`. */
  after: string | undefined;
  /** An item id: the items before it, in `order`. */
  before: string | undefined;
}

/** One page of a response's input items, as OpenAI lists them. */
export interface InputItemsPage {
  object: 'list';
  data: Array<Record<string, unknown>>;
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const refuse = (field: string, reason: string) =>
  new ProxyError(400, 'invalid_request', `\`${field}\`: ${reason}.`);

const text = (value: unknown, field: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw refuse(field, 'expected an item id');
  return value;
};

/**
 * The query of an input items listing; 400 naming the field that is wrong. `include` is accepted and
 * has no effect. `after` and `before` together list the items between them (the openai SDK pages on
 * from a `before` listing by adding `after`).
 */
export function parseInputItemsQuery(query: Readonly<Record<string, unknown>>): InputItemsQuery {
  const { limit, order } = query;
  let pageSize = 20;
  if (limit !== undefined) {
    pageSize = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(pageSize >= 1 && pageSize <= 100)) throw refuse('limit', 'expected a whole number from 1 to 100');
  }
  if (order !== undefined && order !== 'asc' && order !== 'desc')
    throw refuse('order', 'expected `asc` or `desc`');
  return {
    limit: pageSize,
    order: order ?? 'desc',
    after: text(query.after, 'after'),
    before: text(query.before, 'before'),
  };
}

const ID_PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  reasoning: 'rs',
};

/**
 * The items as listed: each with an id of its own (one sent without a usable id, or with one an
 * earlier item has, gets one made of its response's id and its place, the same at every read of this
 * response: a cursor must find one item), a message's text as a content part, as OpenAI lists them.
 */
function listedItems(items: readonly InputItem[], responseId: string): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  const tail = responseId.replace(/^resp_/, '');
  return items.map((item, index) => {
    const type = item.type ?? 'message';
    const listed: Record<string, unknown> = { ...item, type };
    let id = typeof item.id === 'string' && item.id !== '' && !seen.has(item.id) ? item.id : undefined;
    for (let n = 0; id === undefined || seen.has(id); n++)
      id = `${ID_PREFIX[type] ?? 'item'}_${tail}_${index}${n === 0 ? '' : `_${n}`}`;
    seen.add(id);
    listed.id = id;
    const content = (item as { content?: unknown }).content;
    if (type === 'message' && typeof content === 'string') {
      const assistant = (item as { role?: string }).role === 'assistant';
      listed.content = [
        assistant
          ? { type: 'output_text', text: content, annotations: [] }
          : { type: 'input_text', text: content },
      ];
    }
    return listed;
  });
}

/**
 * One page of the items a stored response was made from (the conversation up to it: the responses
 * it continued, then its own input), in `query.order`, between the cursors; 400 for a cursor that is
 * not one of them. With `before` alone, the page is the one just before it, and `has_more` says
 * whether items come before the page.
 */
export function inputItemsPage(
  items: readonly InputItem[],
  responseId: string,
  query: InputItemsQuery,
): InputItemsPage {
  const listed = listedItems(items, responseId);
  if (query.order === 'desc') listed.reverse();
  const at = (cursor: string, field: string) => {
    const index = listed.findIndex((item) => item.id === cursor);
    if (index === -1) throw refuse(field, `no item \`${cursor}\` in this response's input`);
    return index;
  };
  const from = query.after === undefined ? 0 : at(query.after, 'after') + 1;
  const to = query.before === undefined ? listed.length : Math.max(from, at(query.before, 'before'));
  // `before` alone: the page just before the cursor; else the first page after `after`
  const backwards = query.before !== undefined && query.after === undefined;
  const start = backwards ? Math.max(from, to - query.limit) : from;
  const data = listed.slice(start, Math.min(to, start + query.limit));
  const hasMore = backwards ? start > from : start + data.length < to;
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: hasMore,
  };
}
