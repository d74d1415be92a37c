import type { InputItem } from '@svc/router/responses';
import { describe, expect, it } from 'vitest';
import { inputItemsPage, parseInputItemsQuery } from '../../src/routes/input-items.js';

const ITEMS: InputItem[] = [
  { type: 'message', role: 'user', content: 'Capital of France?' },
  {
    type: 'message',
    id: 'msg_kept',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Paris.', annotations: [] }],
  },
  { role: 'user', content: 'Its population?' },
];
const ids = (page: ReturnType<typeof inputItemsPage>) => page.data.map((item) => item.id);
const query = (fields: Record<string, string> = {}) => parseInputItemsQuery(fields);

describe('inputItemsPage', () => {
  it('lists newest first by default, with ids made of the response id and place for items sent without one', () => {
    const page = inputItemsPage(ITEMS, 'resp_abc', query());
    expect(ids(page)).toEqual(['msg_abc_2', 'msg_kept', 'msg_abc_0']);
    expect(page).toMatchObject({
      object: 'list',
      first_id: 'msg_abc_2',
      last_id: 'msg_abc_0',
      has_more: false,
    });
  });

  it("gives a message's text as a content part, as OpenAI lists it", () => {
    const page = inputItemsPage(ITEMS, 'resp_abc', query({ order: 'asc' }));
    expect(page.data[0]).toEqual({
      type: 'message',
      id: 'msg_abc_0',
      role: 'user',
      content: [{ type: 'input_text', text: 'Capital of France?' }],
    });
  });

  it('pages with limit and after, saying when more are left', () => {
    const first = inputItemsPage(ITEMS, 'resp_abc', query({ order: 'asc', limit: '2' }));
    expect([ids(first), first.has_more]).toEqual([['msg_abc_0', 'msg_kept'], true]);
    const next = inputItemsPage(
      ITEMS,
      'resp_abc',
      query({ order: 'asc', limit: '2', after: first.last_id! }),
    );
    expect([ids(next), next.has_more]).toEqual([['msg_abc_2'], false]);
  });

  it('pages back with before: the items just before the cursor, in order', () => {
    const page = inputItemsPage(ITEMS, 'resp_abc', query({ order: 'asc', limit: '1', before: 'msg_abc_2' }));
    expect([ids(page), page.has_more]).toEqual([['msg_kept'], true]);
  });

  it('lists the items between after and before, as the openai SDK asks when it pages on from a before', () => {
    const page = inputItemsPage(
      ITEMS,
      'resp_abc',
      query({ order: 'asc', after: 'msg_abc_0', before: 'msg_abc_2' }),
    );
    expect([ids(page), page.has_more]).toEqual([['msg_kept'], false]);
    const none = inputItemsPage(
      ITEMS,
      'resp_abc',
      query({ order: 'asc', after: 'msg_kept', before: 'msg_kept' }),
    );
    expect([ids(none), none.has_more]).toEqual([[], false]);
  });

  it('gives an item whose id repeats an earlier one, or is empty or not a string, an id of its own', () => {
    const items = [
      { type: 'message', id: 'msg_dup', role: 'user', content: 'a' },
      { type: 'message', id: 'msg_dup', role: 'user', content: 'b' },
      { type: 'message', id: '', role: 'user', content: 'c' },
      { type: 'message', id: 42, role: 'user', content: 'd' },
      // a client id shaped as the one the second item gets
      { type: 'message', id: 'msg_abc_1', role: 'user', content: 'e' },
    ] as unknown as InputItem[];
    const listed = ids(inputItemsPage(items, 'resp_abc', query({ order: 'asc' })));
    expect(listed).toEqual(['msg_dup', 'msg_abc_1', 'msg_abc_2', 'msg_abc_3', 'msg_abc_4']);
  });

  it('refuses a cursor that is not an item of the response, naming it', () => {
    expect(() => inputItemsPage(ITEMS, 'resp_abc', query({ after: 'msg_other' }))).toThrow(
      "`after`: no item `msg_other` in this response's input.",
    );
  });
});

describe('parseInputItemsQuery', () => {
  it('refuses a limit out of 1 to 100 and an unknown order, naming the field', () => {
    expect(() => query({ limit: '0' })).toThrow('`limit`: expected a whole number from 1 to 100.');
    expect(() => query({ limit: '101' })).toThrow('`limit`');
    expect(() => query({ limit: 'ten' })).toThrow('`limit`');
    expect(() => query({ order: 'newest' })).toThrow('`order`: expected `asc` or `desc`.');
  });
});
