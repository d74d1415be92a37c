import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('user and organization routes (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    await client(() => t).post('/team/new', { team_id: 'search' });
    await client(() => t).post('/team/new', { team_id: 'ads' });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);

  it('POST /user/new creates a user in the teams given', async () => {
    const { status, body } = await post('/user/new', {
      user_id: 'ada',
      user_role: 'proxy_admin',
      user_email: 'ada@example.com',
      max_budget: 10,
      teams: ['search', 'ads'],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      user_id: 'ada',
      user_role: 'proxy_admin',
      user_email: 'ada@example.com',
      teams: ['ads', 'search'],
      spend: 0,
      max_budget: 10,
      metadata: {},
    });
  });

  it('POST /user/new without a user_id makes a readable one, role internal_user', async () => {
    const { body } = await post('/user/new', {});
    expect(body.user_id).toMatch(/^user_[0-9a-f]{16}$/);
    expect(body).toMatchObject({ user_role: 'internal_user', user_email: null, teams: [] });
  });

  it('POST /user/new with an unknown role is 400 naming user_role', async () => {
    const { status, body } = await post('/user/new', { user_role: 'superuser' });
    expect(status).toBe(400);
    expect(body.error.message).toContain('user_role');
  });

  it('POST /user/new with a malformed email is 400 naming user_email', async () => {
    const { status, body } = await post('/user/new', { user_email: 'not-an-email' });
    expect(status).toBe(400);
    expect(body.error.message).toContain('user_email');
  });

  it('POST /user/new with a taken user_id is 409', async () => {
    await post('/user/new', { user_id: 'twice' });
    expect((await post('/user/new', { user_id: 'twice' })).status).toBe(409);
  });

  it('POST /user/new naming a missing team is 400 and stores nothing', async () => {
    const { status, body } = await post('/user/new', { user_id: 'half', teams: ['search', 'ghost'] });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'team_not_found' });
    expect(body.error.message).toContain('ghost');
    expect((await get('/user/info?user_id=half')).status).toBe(404);
  });

  it('GET /user/info answers user_id, user_role, user_email, teams and spend', async () => {
    await post('/user/new', { user_id: 'bob', user_email: 'bob@example.com', teams: ['search'] });
    await post('/team/member_add', { team_id: 'ads', user_id: 'bob' });
    const { status, body } = await get('/user/info?user_id=bob');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      user_id: 'bob',
      user_role: 'internal_user',
      user_email: 'bob@example.com',
      teams: ['ads', 'search'],
      spend: 0,
    });
  });

  it('GET /user/info for a missing user is 404; without user_id 400', async () => {
    const missing = await get('/user/info?user_id=nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('user_not_found');
    expect((await get('/user/info')).status).toBe(400);
  });

  it('POST /organization/new creates an organization', async () => {
    const { status, body } = await post('/organization/new', {
      organization_id: 'acme',
      organization_alias: 'Acme',
      max_budget: 1000,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      organization_id: 'acme',
      organization_alias: 'Acme',
      max_budget: 1000,
      spend: 0,
      models: [],
    });
  });

  it('POST /organization/new without an id makes a readable one; without an alias is 400', async () => {
    expect((await post('/organization/new', { organization_alias: 'Org X' })).body.organization_id).toMatch(
      /^org_[0-9a-f]{16}$/,
    );
    const missing = await post('/organization/new', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('organization_alias');
  });

  it('POST /organization/new with a taken alias is 409', async () => {
    await post('/organization/new', { organization_alias: 'Dup' });
    expect((await post('/organization/new', { organization_alias: 'Dup' })).status).toBe(409);
  });

  it('GET /organization/info answers the organization and its team ids; 404 when missing', async () => {
    await post('/organization/new', { organization_id: 'beta', organization_alias: 'Beta' });
    await post('/team/new', { team_id: 'beta-team', organization_id: 'beta' });
    const { status, body } = await get('/organization/info?organization_id=beta');
    expect(status).toBe(200);
    expect(body).toMatchObject({ organization_id: 'beta', organization_alias: 'Beta', teams: ['beta-team'] });
    expect((await get('/organization/info?organization_id=gone')).status).toBe(404);
  });

  it('user and organization routes refuse a virtual key with 403', async () => {
    const { headers } = await newKey();
    const answers = await Promise.all([
      post('/user/new', {}, headers),
      get('/user/info?user_id=ada', headers),
      post('/organization/new', { organization_alias: 'K' }, headers),
      get('/organization/info?organization_id=acme', headers),
    ]);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
  });
});
