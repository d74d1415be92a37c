import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('team routes (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);

  it('POST /team/new creates a team with the fields given', async () => {
    const { status, body } = await post('/team/new', {
      team_id: 'search',
      team_alias: 'Search',
      models: ['gpt-4o'],
      max_budget: 25,
      metadata: { owner: 'ada' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      team_id: 'search',
      team_alias: 'Search',
      models: ['gpt-4o'],
      organization_id: null,
      blocked: false,
      max_budget: 25,
      spend: 0,
      metadata: { owner: 'ada' },
    });
    expect(Date.parse(body.created_at)).not.toBeNaN();
  });

  it('POST /team/new without a team_id makes a readable one', async () => {
    const { body } = await post('/team/new', {});
    expect(body.team_id).toMatch(/^team_[0-9a-f]{16}$/);
    expect(body).toMatchObject({ team_alias: null, models: [] });
  });

  it('POST /team/new with a taken team_alias is 409', async () => {
    await post('/team/new', { team_alias: 'Taken' });
    const { status, body } = await post('/team/new', { team_alias: 'Taken' });
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ type: 'conflict_error', code: 'duplicate' });
    expect(body.error.message).toContain('team_alias');
  });

  it('POST /team/new with a taken team_id is 409', async () => {
    await post('/team/new', { team_id: 'twice' });
    expect((await post('/team/new', { team_id: 'twice' })).status).toBe(409);
  });

  it('POST /team/new names an unknown field and suggests the right one', async () => {
    const { status, body } = await post('/team/new', { team_alais: 'x' });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/team_alais.*team_alias/);
  });

  it('POST /team/new with an unknown organization_id is 400', async () => {
    const { status, body } = await post('/team/new', { organization_id: 'org-missing' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('organization_not_found');
  });

  it('POST /team/new takes an existing organization_id', async () => {
    await post('/organization/new', { organization_id: 'org-t', organization_alias: 'Org T' });
    const { status, body } = await post('/team/new', { organization_id: 'org-t' });
    expect(status).toBe(200);
    expect(body.organization_id).toBe('org-t');
  });

  it('GET /team/info answers the team, its members and its spend', async () => {
    await post('/team/new', { team_id: 'info-team', team_alias: 'Info' });
    await post('/team/member_add', { team_id: 'info-team', user_id: 'bob' });
    await post('/team/member_add', { team_id: 'info-team', user_id: 'ada' });
    const { status, body } = await get('/team/info?team_id=info-team');
    expect(status).toBe(200);
    expect(body).toEqual({
      team_id: 'info-team',
      team_info: expect.objectContaining({ team_id: 'info-team', team_alias: 'Info', blocked: false }),
      members: ['ada', 'bob'],
      spend: 0,
    });
  });

  it('GET /team/info for a missing team is 404', async () => {
    const { status, body } = await get('/team/info?team_id=nope');
    expect(status).toBe(404);
    expect(body.error.code).toBe('team_not_found');
  });

  it('GET /team/info without team_id is 400 naming it', async () => {
    const { status, body } = await get('/team/info');
    expect(status).toBe(400);
    expect(body.error.message).toContain('team_id');
  });

  it('POST /team/block and /team/unblock answer the team with blocked set', async () => {
    await post('/team/new', { team_id: 'flip' });
    expect((await post('/team/block', { team_id: 'flip' })).body).toMatchObject({
      team_id: 'flip',
      blocked: true,
    });
    expect((await get('/team/info?team_id=flip')).body.team_info.blocked).toBe(true);
    expect((await post('/team/unblock', { team_id: 'flip' })).body).toMatchObject({ blocked: false });
  });

  it('POST /team/block and /team/unblock of a missing team are 404', async () => {
    expect((await post('/team/block', { team_id: 'nope' })).status).toBe(404);
    expect((await post('/team/unblock', { team_id: 'nope' })).status).toBe(404);
  });

  it("a blocked team's keys get 403 team_blocked on every call; unblocked they work again", async () => {
    await post('/team/new', { team_id: 'ads' });
    const member = await newKey({ team_id: 'ads' });
    const other = await newKey();
    expect((await chat(member.headers)).status).toBe(200);

    await post('/team/block', { team_id: 'ads' });
    const refused = await chat(member.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ type: 'permission_error', code: 'team_blocked' });
    expect((await get('/v1/models', member.headers)).status).toBe(403);
    expect((await chat(other.headers)).status).toBe(200);

    await post('/team/unblock', { team_id: 'ads' });
    expect((await chat(member.headers)).status).toBe(200);
  });

  it('POST /team/member_add and /team/member_delete answer the members', async () => {
    await post('/team/new', { team_id: 'crew' });
    expect((await post('/team/member_add', { team_id: 'crew', user_id: 'cat' })).body).toEqual({
      team_id: 'crew',
      members: ['cat'],
    });
    expect((await post('/team/member_delete', { team_id: 'crew', user_id: 'cat' })).body).toEqual({
      team_id: 'crew',
      members: [],
    });
  });

  it('POST /team/member_add to a missing team is 404; deleting a non-member is 404', async () => {
    expect((await post('/team/member_add', { team_id: 'nope', user_id: 'x' })).status).toBe(404);
    await post('/team/new', { team_id: 'lonely' });
    const { status, body } = await post('/team/member_delete', { team_id: 'lonely', user_id: 'x' });
    expect(status).toBe(404);
    expect(body.error.code).toBe('member_not_found');
  });

  it('GET /team/list gives every team with its members, in one list', async () => {
    await post('/team/new', {
      team_id: 'list-ads',
      team_alias: 'List Ads',
      max_budget: 3,
      models: ['gpt-4o'],
    });
    await post('/team/member_add', { team_id: 'list-ads', user_id: 'zoe' });
    await post('/team/member_add', { team_id: 'list-ads', user_id: 'ada' });
    const { status, body } = await get('/team/list');
    expect(status).toBe(200);
    const team = body.data.find((x: { team_id: string }) => x.team_id === 'list-ads');
    expect(team).toMatchObject({
      team_alias: 'List Ads',
      organization_id: null,
      models: ['gpt-4o'],
      blocked: false,
      spend: 0,
      max_budget: 3,
      members: ['ada', 'zoe'],
    });
    expect(Date.parse(team.created_at)).not.toBeNaN();
  });

  it('GET /team/list sorts by team_alias, teams without one last by team_id, and shows blocked ones', async () => {
    await post('/team/new', { team_id: 'sort-1', team_alias: 'Sort Zeta' });
    await post('/team/new', { team_id: 'sort-2', team_alias: 'Sort Alpha' });
    await post('/team/new', { team_id: 'sort-0' });
    await post('/team/block', { team_id: 'sort-1' });
    const { body } = await get('/team/list');
    const sorted = body.data.filter((x: { team_id: string }) => x.team_id.startsWith('sort-'));
    expect(sorted.map((x: { team_id: string }) => x.team_id)).toEqual(['sort-2', 'sort-1', 'sort-0']);
    expect(sorted.map((x: { blocked: boolean }) => x.blocked)).toEqual([false, true, false]);
    expect(sorted[2].members).toEqual([]);
  });

  it('every team route refuses a virtual key with 403', async () => {
    const { headers } = await newKey();
    await post('/team/new', { team_id: 'guarded' });
    const answers = await Promise.all([
      post('/team/new', {}, headers),
      get('/team/info?team_id=guarded', headers),
      post('/team/block', { team_id: 'guarded' }, headers),
      post('/team/unblock', { team_id: 'guarded' }, headers),
      post('/team/member_add', { team_id: 'guarded', user_id: 'x' }, headers),
      post('/team/member_delete', { team_id: 'guarded', user_id: 'x' }, headers),
      get('/team/list', headers),
    ]);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(answers[0]!.body.error.code).toBe('admin_only');
  });

  it('team routes without a key are 401', async () => {
    expect((await get('/team/info?team_id=search', {})).status).toBe(401);
  });
});
