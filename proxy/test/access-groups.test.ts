// Access groups (CONTRACT 6.6, issue 25 item 3): a key's or team's `models` may name an access group
// (`model_info.access_groups`), which allows every model group that has a deployment in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const USER = [{ role: 'user', content: 'hi' }];

describe.each(ENGINES)('access groups (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [
        {
          ...mockDeployment(mock, 'mini', 'gpt-4o-mini'),
          model_info: { id: 'mini', access_groups: ['fast-models'] },
        },
        {
          ...mockDeployment(mock, 'haiku', 'haiku'),
          model_info: { id: 'haiku', access_groups: ['fast-models'] },
        },
        mockDeployment(mock, 'big', 'gpt-4o'),
      ],
    });
    await post('/team/new', { team_id: 'fast-team', models: ['fast-models'] });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const { post, get, newKey } = client(() => t);
  const chat = (model: string, headers: Record<string, string>) =>
    post('/v1/chat/completions', { model, messages: USER }, headers);

  it('lets a key whose models name an access group call a group in it (200) and no other (403)', async () => {
    const { headers } = await newKey({ models: ['fast-models'] });
    expect((await chat('haiku', headers)).status).toBe(200);
    const outside = await chat('gpt-4o', headers);
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('model_not_allowed');
    expect(outside.body.error.message).toContain('fast-models (access group: gpt-4o-mini, haiku)');
  });

  it("lets a team's models name an access group", async () => {
    const { headers } = await newKey({ team_id: 'fast-team' });
    expect((await chat('gpt-4o-mini', headers)).status).toBe(200);
    expect((await chat('gpt-4o', headers)).status).toBe(403);
  });

  it('lists the groups an access group grants on /v1/models and /model_group/info', async () => {
    const { headers } = await newKey({ models: ['fast-models'] });
    const models = await get('/v1/models', headers);
    expect(models.body.data.map((m: { id: string }) => m.id).sort()).toEqual(['gpt-4o-mini', 'haiku']);
    const info = await get('/model_group/info', headers);
    expect(info.body.data.map((m: { model_group: string }) => m.model_group).sort()).toEqual([
      'gpt-4o-mini',
      'haiku',
    ]);
  });

  it('keeps a key whose models name no group or access group as it was: it may call nothing else', async () => {
    const { headers } = await newKey({ models: ['slow-models'] });
    expect((await chat('haiku', headers)).status).toBe(403);
  });
});
