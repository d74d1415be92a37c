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

/** The query of an input items listing; 400 naming the field that is wrong. `include` is accepted and has no effect. */
export function parseInputItemsQuery(query: Readonly<Record<string, unknown>>): InputItemsQuery {
  const { limit, order } = query;
  let pageSize = 20;
  if (limit !== undefined) {
    pageSize = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(pageSize >= 1 && pageSize <= 100)) throw refuse('limit', 'expected a whole number from 1 to 100');
  }
  if (order !== undefined && order !== 'asc' && order !== 'desc')
    throw refuse('order', 'expected `asc` or `desc`');
  const after = text(query.after, 'after');
  const before = text(query.before, 'before');
  if (after !== undefined && before !== undefined) throw refuse('before', 'not with `after`');
  return { limit: pageSize, order: order ?? 'desc', after, before };
}

const ID_PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  reasoning: 'rs',
};

/**
 * An item as listed: with an id (an item sent without one gets one made of its response's id and its
 * place, the same at every read) and a message's text as a content part, as OpenAI lists them.
 */
function listedItem(item: InputItem, responseId: string, index: number): Record<string, unknown> {
  const type = item.type ?? 'message';
  const listed: Record<string, unknown> = { ...item, type };
  if (item.id === undefined)
    listed.id = `${ID_PREFIX[type] ?? 'item'}_${responseId.replace(/^resp_/, '')}_${index}`;
  if (type === 'message' && typeof (item as { content?: unknown }).content === 'string') {
    const role = (item as { role?: string }).role;
    listed.content = [
      {
        type: role === 'assistant' ? 'output_text' : 'input_text',
        text: (item as { content: string }).content,
      },
    ];
  }
  return listed;
}

/**
 * One page of the items a stored response was made from (the conversation up to it: the responses
 * it continued, then its own input), in `query.order`, from the cursor on; 400 for a cursor that is
 * not one of them.
 */
export function inputItemsPage(
  items: readonly InputItem[],
  responseId: string,
  query: InputItemsQuery,
): InputItemsPage {
  const listed = items.map((item, i) => listedItem(item, responseId, i));
  if (query.order === 'desc') listed.reverse();
  const at = (cursor: string, field: string) => {
    const index = listed.findIndex((item) => item.id === cursor);
    if (index === -1) throw refuse(field, `no item \`${cursor}\` in this response's input`);
    return index;
  };
  let start = 0;
  let end = listed.length;
  if (query.after !== undefined) start = at(query.after, 'after') + 1;
  if (query.before !== undefined) {
    // the page just before the cursor, in order
    end = at(query.before, 'before');
    start = Math.max(0, end - query.limit);
  }
  const data = listed.slice(start, Math.min(end, start + query.limit));
  const hasMore = query.before !== undefined ? start > 0 : start + data.length < end;
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: hasMore,
  };
}
