// Wildcard groups on the gateway (CONTRACT 6.7, issue 26 item 3): a key may call a model by its name or
// by the wildcard pattern serving it; /v1/models lists the listed groups only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const USER = [{ role: 'user', content: 'hi' }];

describe.each(ENGINES)('wildcard models on the gateway (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [
        mockDeployment(mock, 'exact', 'gpt-4o'),
        {
          model_name: 'openai/*',
          svc_params: {
            model: 'openai/*',
            api_base: `${mock.url}/wild/v1`,
            api_key: 'sk-upstream-wild-0000',
          },
        },
      ],
    });
  }, 60_000);
  afterAll(() => t?.close());

  const { post, get, newKey } = client(() => t);

  it('lets a key whose models list the pattern call a model it serves', async () => {
    const { headers } = await newKey({ models: ['openai/*'] });
    const res = await post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: USER }, headers);
    expect(res.status).toBe(200);
    expect(t.mock.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o-mini' });
  });

  it('lets a key whose models list the model itself call it', async () => {
    const { headers } = await newKey({ models: ['openai/o3'] });
    expect((await post('/v1/chat/completions', { model: 'openai/o3', messages: USER }, headers)).status).toBe(
      200,
    );
  });

  it('refuses a key whose models list neither the model nor its pattern', async () => {
    const { headers } = await newKey({ models: ['gpt-4o'] });
    const res = await post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: USER }, headers);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('model_not_allowed');
  });

  it('refuses a model name over 256 characters, on the chat and Messages routes, before it is sent', async () => {
    const model = `openai/${'m'.repeat(256)}`;
    const before = t.mock.requests.length;
    const chat = await post('/v1/chat/completions', { model, messages: USER });
    const messages = await post('/v1/messages', { model, max_tokens: 8, messages: USER });
    for (const res of [chat, messages]) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('`model`: expected at most 256 characters');
    }
    expect(t.mock.requests.length).toBe(before);
  });

  it('lists the listed groups only on /v1/models', async () => {
    const res = await get('/v1/models');
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual(['gpt-4o']);
  });
});
