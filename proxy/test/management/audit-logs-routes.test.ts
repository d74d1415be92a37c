import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, MASTER_KEY, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('GET /audit/logs (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);

  it('has one row for each existing management write: key generate and delete, team, user, organization new', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const { key, keyHash } = await newKey({ key_alias: 'al-created', rpm_limit: 3 });
    await post('/key/delete', { keys: [key] });
    await post('/team/new', { team_id: 'al-team', max_budget: 2 });
    await post('/user/new', { user_id: 'al-user', teams: ['al-team'] });
    await post('/organization/new', { organization_id: 'al-org', organization_alias: 'AL' });
    const { status, body } = await get(`/audit/logs?since=${encodeURIComponent(since)}`);
    expect(status).toBe(200);
    const seen = body.data.map((r: { action: string; object_type: string; object_id: string }) =>
      [r.action, r.object_type, r.object_id].join(' '),
    );
    expect(seen).toEqual([
      'create organization al-org',
      'create user al-user',
      'create team al-team',
      `delete key ${keyHash.slice(0, 8)}`,
      `create key ${keyHash.slice(0, 8)}`,
    ]);
    const created = body.data[4];
    expect(created.actor).toBe('master_key');
    expect(created.changes).toMatchObject({
      key_alias: { before: null, after: 'al-created' },
      rpm_limit: { before: null, after: 3 },
    });
    expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(Date.parse(since));
    expect(body.data[2].changes.max_budget).toEqual({ before: null, after: 2 });
    expect(body.data[1].changes.teams).toEqual({ before: null, after: ['al-team'] });
    const text = JSON.stringify(body);
    for (const secret of [key, keyHash, MASTER_KEY]) expect(text).not.toContain(secret);
  });

  it('filters by object type, object id (a key as itself, its hash or its prefix) and action', async () => {
    const { key, keyHash } = await newKey();
    await post('/key/block', { key });
    for (const id of [key, keyHash, keyHash.slice(0, 8)]) {
      const { body } = await get(`/audit/logs?object_type=key&object_id=${encodeURIComponent(id)}`);
      expect(body.data.map((r: { action: string }) => r.action)).toEqual(['block', 'create']);
    }
    const { body } = await get(`/audit/logs?object_type=key&object_id=${keyHash}&action=block`);
    expect(body.total).toBe(1);
  });

  it('pages newest first', async () => {
    for (const id of ['al-p1', 'al-p2', 'al-p3']) await post('/team/new', { team_id: id });
    const page1 = await get('/audit/logs?object_type=team&action=create&size=2');
    const page2 = await get('/audit/logs?object_type=team&action=create&size=2&page=2');
    expect(page1.body.data.map((r: { object_id: string }) => r.object_id)).toEqual(['al-p3', 'al-p2']);
    expect(page2.body.data[0].object_id).toBe('al-p1');
    expect(page1.body).toMatchObject({ page: 1, size: 2, total: page2.body.total });
  });

  it('answers 400 naming a bad filter', async () => {
    const type = await get('/audit/logs?object_type=planet');
    expect(type.status).toBe(400);
    expect(type.body.error.message).toContain('object_type');
    const since = await get('/audit/logs?since=yesterday');
    expect(since.status).toBe(400);
    expect(since.body.error.message).toContain('since');
    const id = await get(`/audit/logs?object_id=${encodeURIComponent('a\u0000b')}`);
    expect(id.status).toBe(400);
    expect(id.body.error.message).toContain('object_id');
  });

  it('is for admins only', async () => {
    const { headers } = await newKey();
    expect((await get('/audit/logs', headers)).status).toBe(403);
  });

  it('records team block, membership and JWT mapping and config changes too', async () => {
    await post('/team/new', { team_id: 'al-more' });
    await post('/team/block', { team_id: 'al-more' });
    await post('/team/member_add', { team_id: 'al-more', user_id: 'al-someone' });
    const { keyHash } = await newKey();
    const mapping = await post('/jwt/key/mapping/new', {
      jwt_claim_name: 'client_id',
      jwt_claim_value: 'al-client',
      key: keyHash,
    });
    await post('/config/update', { router_settings: { num_retries: 2 } });
    const team = (await get('/audit/logs?object_type=team&object_id=al-more')).body.data;
    expect(team.map((r: { action: string }) => r.action)).toEqual(['member_add', 'block', 'create']);
    const mapped = (await get(`/audit/logs?object_type=jwt_key_mapping&object_id=${mapping.body.id}`)).body
      .data;
    expect(mapped[0].changes.key).toEqual({ before: null, after: keyHash.slice(0, 8) });
    expect(JSON.stringify(mapped)).not.toContain(keyHash);
    const settings = (await get('/audit/logs?object_type=router_settings')).body.data;
    expect(settings[0].changes.num_retries.after).toBe(2);
  });
});
