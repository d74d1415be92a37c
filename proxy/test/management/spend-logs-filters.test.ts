import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

// The admin page's spend-log viewer filters by model and tag and pages through rows.
describe.each(ENGINES)('GET /spend/logs model, tag and offset (%s)', (engine) => {
  let t: TestProxy;
  const { post, get } = client(() => t);
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'north', 'backup')],
    });
    const chat = (model: string, tags: string[]) =>
      post('/v1/chat/completions', {
        model,
        messages: [{ role: 'user', content: 'hi' }],
        metadata: { tags },
      });
    for (const [model, tags] of [
      ['backup', ['checkout']],
      ['backup', ['checkout', 'prod']],
      ['gpt-4o', ['prod']],
    ] as const) {
      expect((await chat(model, [...tags])).status).toBe(200);
    }
    await eventually(async () => expect((await get('/spend/logs')).body).toHaveLength(3));
  });
  afterAll(() => t.close());

  it('model= keeps the rows of that model group', async () => {
    const { body } = await get('/spend/logs?model=backup');
    expect(body.map((r: { model_group: string }) => r.model_group)).toEqual(['backup', 'backup']);
  });

  it('tag= keeps the rows whose request carried the tag among others', async () => {
    const { body } = await get('/spend/logs?tag=prod');
    expect(body.map((r: { model_group: string }) => r.model_group).sort()).toEqual(['backup', 'gpt-4o']);
  });

  it('offset= skips that many of the newest rows, for paging with limit', async () => {
    const all = (await get('/spend/logs')).body.map((r: { call_id: string }) => r.call_id);
    const second = (await get('/spend/logs?limit=2&offset=2')).body.map(
      (r: { call_id: string }) => r.call_id,
    );
    expect(second).toEqual(all.slice(2));
  });

  it('a negative offset is a 400 naming it', async () => {
    const { status, body } = await get('/spend/logs?offset=-1');
    expect(status).toBe(400);
    expect(body.error.message).toContain('offset');
  });
});
