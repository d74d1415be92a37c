import type { MockProvider } from '@svc/router/testing';
import OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ENGINES,
  eventually,
  MASTER_KEY,
  mockDeployment,
  startTestProxy,
  type TestProxy,
} from './harness.js';

type Json = Record<string, unknown>;

const PRICES = { input_cost_per_token: 0.000001, output_cost_per_token: 0.000002 };

const WEATHER_TOOL = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

function deployments(mock: MockProvider) {
  return [
    mockDeployment(mock, 'east'),
    {
      model_name: 'claude',
      svc_params: {
        model: 'anthropic/claude-sonnet-4-5',
        api_base: `${mock.url}/an`,
        api_key: 'sk-ant-0000',
        ...PRICES,
      },
      model_info: { id: 'an' },
    },
    // a failing first tier: the call goes on to the second
    mockDeployment(mock, 'down', 'flaky', { order: 1 }),
    mockDeployment(mock, 'up', 'flaky', { order: 2 }),
  ];
}

/** The body the mock received last on a path prefix. */
function lastBody(mock: MockProvider, prefix: string): Json {
  const request = mock.requests.filter((r) => r.path.startsWith(prefix)).at(-1);
  return (request?.body ?? {}) as Json;
}

async function newKey(t: TestProxy, fields: Json = {}): Promise<{ key: string; key_hash: string }> {
  const res = await fetch(`${t.url}/key/generate`, {
    method: 'POST',
    headers: { ...t.admin, 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { key: string; key_hash: string };
}

describe.each(ENGINES)('POST /v1/responses through the openai SDK (%s)', (engine) => {
  let t: TestProxy;
  let client: OpenAI;
  const clientFor = (key: string) => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  beforeAll(async () => {
    t = await startTestProxy(engine, { models: deployments });
    client = clientFor(MASTER_KEY);
  });
  afterAll(() => t.close());
  beforeEach(() => t.mock.reset());

  it('answers a Response from an OpenAI-format deployment, instructions first, limits and effort sent', async () => {
    t.mock.setBehavior('/east', {
      content: 'Hello there.',
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    });
    const response = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Be brief.',
      input: 'hi',
      max_output_tokens: 50,
      reasoning: { effort: 'low' },
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      instructions: 'Be brief.',
    });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response.output_text).toBe('Hello there.');
    expect(response.output).toEqual([
      {
        type: 'message',
        id: expect.stringMatching(/^msg_/),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello there.', annotations: [], logprobs: [] }],
      },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
    expect(lastBody(t.mock, '/east')).toMatchObject({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      max_completion_tokens: 50,
      reasoning_effort: 'low',
    });
  });

  it('answers from an Anthropic-format deployment: effort as a thinking budget, reasoning as an item', async () => {
    t.mock.setBehavior('/an', { reasoning: 'Two and two.', signature: 'sig-1', content: 'Four.' });
    const response = await client.responses.create({
      model: 'claude',
      instructions: 'Answer in one word.',
      input: '2+2?',
      reasoning: { effort: 'medium' },
      max_output_tokens: 4000,
    });
    expect(response.output_text).toBe('Four.');
    expect(response.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Two and two.' }],
      encrypted_content: expect.any(String),
    });
    expect(lastBody(t.mock, '/an')).toMatchObject({
      system: 'Answer in one word.',
      messages: [{ role: 'user', content: '2+2?' }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 4000,
    });
  });

  it('returns a function call, then sends the call and its output back (thinking signature kept)', async () => {
    t.mock.setBehavior('/an', {
      reasoning: 'Need the tool.',
      signature: 'sig-tool',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const first = await client.responses.create({
      model: 'claude',
      input: 'Weather in Paris?',
      tools: [WEATHER_TOOL],
      reasoning: { effort: 'low' },
      store: false,
    });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(lastBody(t.mock, '/an').tools).toEqual([
      { name: 'get_weather', description: 'The weather in a city.', input_schema: WEATHER_TOOL.parameters },
    ]);
    t.mock.setBehavior('/an', { content: 'Sunny in Paris.' });
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Weather in Paris?' },
      ...(first.output as ResponseInputItem[]),
      { type: 'function_call_output', call_id: 'toolu_1', output: 'sunny' },
    ];
    const second = await client.responses.create({
      model: 'claude',
      input,
      tools: [WEATHER_TOOL],
      reasoning: { effort: 'low' },
    });
    expect(second.output_text).toBe('Sunny in Paris.');
    expect((lastBody(t.mock, '/an').messages as Json[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Need the tool.', signature: 'sig-tool' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ]);
  });

  it('marks an answer cut by max_output_tokens incomplete', async () => {
    const cut = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'Once upon' } }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    };
    t.mock.setBehavior('/east', {
      raw: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(cut) },
    });
    const response = await client.responses.create({
      model: 'gpt-4o',
      input: 'A story',
      max_output_tokens: 2,
    });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output_text).toBe('Once upon');
  });

  it('streams text: every event in order, numbered from 0, the final response whole', async () => {
    t.mock.setBehavior('/east', {
      content: 'one two three four five',
      usage: { prompt_tokens: 7, completion_tokens: 5 },
    });
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'count' });
    const events: ResponseStreamEvent[] = [];
    stream.on('event', (event) => events.push(event));
    let text = '';
    stream.on('response.output_text.delta', (event) => {
      text += event.delta;
    });
    const final = await stream.finalResponse();
    expect(text).toBe('one two three four five');
    expect(final.output_text).toBe('one two three four five');
    expect(final.status).toBe('completed');
    expect(final.usage).toMatchObject({ input_tokens: 7, output_tokens: 5, total_tokens: 12 });
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = [...new Set(events.map((e) => e.type))];
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('streams a function call: its arguments as deltas, the call whole at the end', async () => {
    t.mock.setBehavior('/east', {
      toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    const stream = client.responses.stream({
      model: 'gpt-4o',
      input: 'Weather in Oslo?',
      tools: [WEATHER_TOOL],
    });
    let args = '';
    stream.on('response.function_call_arguments.delta', (event) => {
      args += event.delta;
    });
    const final = await stream.finalResponse();
    expect(args).toBe('{"city":"Oslo"}');
    expect(final.output).toEqual([
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'call_9',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        status: 'completed',
        parsed_arguments: null, // the SDK's own addition
      },
    ]);
  });

  it('streams reasoning from an Anthropic-format deployment as summary text', async () => {
    t.mock.setBehavior('/an', { reasoning: 'Let me think it over.', content: 'Done.' });
    const stream = client.responses.stream({ model: 'claude', input: 'Think', reasoning: { effort: 'low' } });
    let reasoning = '';
    stream.on('response.reasoning_summary_text.delta', (event) => {
      reasoning += event.delta;
    });
    const final = await stream.finalResponse();
    expect(reasoning).toBe('Let me think it over.');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(final.output_text).toBe('Done.');
  });

  it('ends a stream cut upstream with response.failed carrying the error', async () => {
    t.mock.setBehavior('/east', { content: 'one two three four five six seven', stream: { cutAfter: 2 } });
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'count' });
    const final = await stream.finalResponse();
    expect(final.status).toBe('failed');
    expect(final.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('continues a stored conversation from previous_response_id: the earlier turns replayed', async () => {
    t.mock.setBehavior('/east', { content: 'Paris.' });
    const first = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Old rules.',
      input: 'Capital of France?',
    });
    t.mock.setBehavior('/east', { content: 'About 2 million.' });
    const second = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'New rules.',
      input: 'Its population?',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(lastBody(t.mock, '/east').messages).toEqual([
      { role: 'system', content: 'New rules.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'Its population?' },
    ]);
    t.mock.setBehavior('/east', { content: 'Yes.' });
    await client.responses.create({ model: 'gpt-4o', input: 'Sure?', previous_response_id: second.id });
    expect((lastBody(t.mock, '/east').messages as Json[]).map((m) => m.content)).toEqual([
      'Capital of France?',
      'Paris.',
      'Its population?',
      'About 2 million.',
      'Sure?',
    ]);
  });

  it('returns a stored response by id, streamed ones included', async () => {
    t.mock.setBehavior('/east', { content: 'Kept.' });
    const created = await client.responses.create({ model: 'gpt-4o', input: 'keep this' });
    expect(await client.responses.retrieve(created.id)).toEqual(created);
    const streamed = await client.responses.stream({ model: 'gpt-4o', input: 'and this' }).finalResponse();
    const read = await client.responses.retrieve(streamed.id);
    expect(read.output_text).toBe('Kept.');
    expect(read.status).toBe('completed');
  });

  it('deletes a stored response, answering as OpenAI does; it can then be neither read nor continued', async () => {
    t.mock.setBehavior('/east', { content: 'Soon gone.' });
    const created = await client.responses.create({ model: 'gpt-4o', input: 'delete me' });
    const res = await fetch(`${t.url}/v1/responses/${created.id}`, { method: 'DELETE', headers: t.admin });
    expect([res.status, await res.json()]).toEqual([
      200,
      { id: created.id, object: 'response', deleted: true },
    ]);
    const read = await client.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(OpenAI.NotFoundError);
    const continued = await client.responses
      .create({ model: 'gpt-4o', input: 'and then?', previous_response_id: created.id })
      .catch((e: unknown) => e);
    expect(continued).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('deletes through the openai SDK, and answers 404 to a second delete', async () => {
    const created = await client.responses.create({ model: 'gpt-4o', input: 'delete me too' });
    await client.responses.delete(created.id);
    const again = await client.responses.delete(created.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OpenAI.NotFoundError);
    expect((again as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('response_not_found');
  });

  it("answers 404 to another key deleting a key's response, and keeps it", async () => {
    const owner = clientFor((await newKey(t)).key);
    const other = clientFor((await newKey(t)).key);
    const created = await owner.responses.create({ model: 'gpt-4o', input: 'still mine' });
    const deleted = await other.responses.delete(created.id).catch((e: unknown) => e);
    expect(deleted).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await owner.responses.retrieve(created.id)).id).toBe(created.id);
  });

  it("lists a stored response's input items through the openai SDK: the conversation up to it, newest first", async () => {
    t.mock.setBehavior('/east', { content: 'Paris.' });
    const first = await client.responses.create({ model: 'gpt-4o', input: 'Capital of France?' });
    t.mock.setBehavior('/east', { content: 'About 2 million.' });
    const second = await client.responses.create({
      model: 'gpt-4o',
      input: 'Its population?',
      previous_response_id: first.id,
    });
    const page = await client.responses.inputItems.list(second.id);
    const texts = page.data.map((item) => {
      const content = (item as { content: Array<{ text: string }> }).content;
      return content.map((part) => part.text).join('');
    });
    expect(texts).toEqual(['Its population?', 'Paris.', 'Capital of France?']);
    expect(page.data.every((item) => typeof item.id === 'string' && item.id !== '')).toBe(true);
    expect(page.has_more).toBe(false);
    const oldest = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 1 });
    expect(oldest.data.map((item) => item.id)).toEqual([page.data.at(-1)!.id]);
    expect(oldest.has_more).toBe(true);
  });

  it('pages through every input item with the SDK, ids repeated by the client included', async () => {
    const input = ['one', 'two', 'three', 'four', 'five'].map((text, i) => ({
      type: 'message' as const,
      id: i < 2 ? 'msg_dup' : `msg_${i}`,
      role: 'user' as const,
      content: text,
    }));
    const created = await client.responses.create({ model: 'gpt-4o', input: input as ResponseInputItem[] });
    const seen: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 2, order: 'asc' }))
      seen.push((item as { content: Array<{ text: string }> }).content[0]!.text);
    expect(seen).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('deletes with a JSON content type and an empty body, as Python requests sends it', async () => {
    const created = await client.responses.create({ model: 'gpt-4o', input: 'delete me, requests-style' });
    const res = await fetch(`${t.url}/v1/responses/${created.id}`, {
      method: 'DELETE',
      headers: { ...t.admin, 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(res.status).toBe(200);
  });

  it("answers 404 to another key listing a key's input items, and 400 naming a bad limit", async () => {
    const owner = clientFor((await newKey(t)).key);
    const other = clientFor((await newKey(t)).key);
    const created = await owner.responses.create({ model: 'gpt-4o', input: 'mine' });
    const listed = await other.responses.inputItems.list(created.id).catch((e: unknown) => e);
    expect(listed).toBeInstanceOf(OpenAI.NotFoundError);
    const bad = await fetch(`${t.url}/v1/responses/${created.id}/input_items?limit=500`, {
      headers: t.admin,
    });
    const body = (await bad.json()) as { error: { message: string } };
    expect([bad.status, body.error.message]).toEqual([
      400,
      '`limit`: expected a whole number from 1 to 100.',
    ]);
  });

  it('keeps nothing with store: false', async () => {
    const created = await client.responses.create({ model: 'gpt-4o', input: 'forget this', store: false });
    const error = await client.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("answers 404 response_not_found to another key reading or continuing a key's response", async () => {
    const owner = clientFor((await newKey(t)).key);
    const other = clientFor((await newKey(t)).key);
    const created = await owner.responses.create({ model: 'gpt-4o', input: 'mine' });
    expect((await owner.responses.retrieve(created.id)).id).toBe(created.id);
    const read = await other.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(OpenAI.NotFoundError);
    expect((read as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('response_not_found');
    const hits = t.mock.hits('/east');
    const continued = await other.responses
      .create({ model: 'gpt-4o', input: 'yours?', previous_response_id: created.id })
      .catch((e: unknown) => e);
    expect(continued).toBeInstanceOf(OpenAI.NotFoundError);
    expect(t.mock.hits('/east')).toBe(hits);
    expect((await client.responses.retrieve(created.id)).id).toBe(created.id); // the master key is an admin
  });

  it('writes a spend row on route /v1/responses with the usage and cost', async () => {
    t.mock.setBehavior('/east', { content: 'paid', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const { key, key_hash } = await newKey(t, { max_budget: 10 });
    const { response } = await clientFor(key)
      .responses.create({ model: 'gpt-4o', input: 'hi', user: 'end-user-7' })
      .withResponse();
    const callId = response.headers.get('x-svc-call-id');
    await eventually(async () => {
      const rows = (await (
        await fetch(`${t.url}/spend/logs?key=${key_hash}`, { headers: t.admin })
      ).json()) as Json[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        call_id: callId,
        route: '/v1/responses',
        model_group: 'gpt-4o',
        model_id: 'east',
        end_user: 'end-user-7',
        prompt_tokens: 10,
        completion_tokens: 5,
        status: 'success',
      });
      expect(rows[0]?.cost).toBeCloseTo(10 * 0.000001 + 5 * 0.000002, 12);
    });
  });

  it('is served by the next deployment when the first answers 500', async () => {
    t.mock.setBehavior('/down', { status: 500 });
    t.mock.setBehavior('/up', { content: 'from up' });
    const response = await client.responses.create({ model: 'flaky', input: 'hi' });
    expect(response.output_text).toBe('from up');
    expect(t.mock.hits('/down')).toBeGreaterThan(0);
  });

  it('refuses a built-in tool and an unknown field with 400 naming them', async () => {
    const error = await client.responses
      .create({ model: 'gpt-4o', input: 'hi', tools: [{ type: 'web_search' }], colour: 'red' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('tools[0].type: built-in tool `web_search` is not supported');
    expect((error as Error).message).toContain('unknown field `colour`');
    expect(t.mock.requests).toHaveLength(0);
  });
});
