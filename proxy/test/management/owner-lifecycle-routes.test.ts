import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('team, user and organization update and delete (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/east', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);
  const auditOf = async (type: string, id: string) =>
    (await get(`/audit/logs?object_type=${type}&object_id=${id}`)).body.data;

  describe('POST /team/update', () => {
    it('sets the fields given, keeps the others, and audits the change', async () => {
      await post('/team/new', { team_id: 'tu-keep', team_alias: 'Keep', max_budget: 5, metadata: { a: 1 } });
      const { status, body } = await post('/team/update', {
        team_id: 'tu-keep',
        tpm_limit: 1000,
        team_alias: 'Kept',
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        team_id: 'tu-keep',
        team_alias: 'Kept',
        tpm_limit: 1000,
        max_budget: 5,
        metadata: { a: 1 },
      });
      expect((await get('/team/info?team_id=tu-keep')).body.team_info.team_alias).toBe('Kept');
      const [row] = await auditOf('team', 'tu-keep');
      expect(row).toMatchObject({
        actor: 'master_key',
        action: 'update',
        changes: { team_alias: { before: 'Keep', after: 'Kept' }, tpm_limit: { before: null, after: 1000 } },
      });
    });

    it("restricts the team's keys at once when its models change", async () => {
      await post('/team/new', { team_id: 'tu-models' });
      const { headers } = await newKey({ team_id: 'tu-models' });
      expect((await chat(headers)).status).toBe(200); // key and team cached
      await post('/team/update', { team_id: 'tu-models', models: ['other-model'] });
      const refused = await chat(headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('model_not_allowed');
    });

    it('answers 404 for an unknown team, 400 naming a bad field, 409 for a taken alias', async () => {
      const missing = await post('/team/update', { team_id: 'tu-ghost', max_budget: 1 });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toContain('tu-ghost');
      await post('/team/new', { team_id: 'tu-a', team_alias: 'Alpha' });
      await post('/team/new', { team_id: 'tu-b' });
      const bad = await post('/team/update', { team_id: 'tu-b', rpm_limit: 'many' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('rpm_limit');
      const org = await post('/team/update', { team_id: 'tu-b', organization_id: 'org-ghost' });
      expect(org.status).toBe(400);
      expect(org.body.error.message).toContain('organization_id');
      const taken = await post('/team/update', { team_id: 'tu-b', team_alias: 'Alpha' });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toContain('team_alias');
    });
  });

  describe('POST /team/delete', () => {
    it('deletes teams with no keys, their memberships too, and audits each', async () => {
      await post('/team/new', { team_id: 'td-1' });
      await post('/team/new', { team_id: 'td-2' });
      await post('/user/new', { user_id: 'td-member', teams: ['td-1'] });
      const { status, body } = await post('/team/delete', { team_ids: ['td-2', 'td-1'] });
      expect(status).toBe(200);
      expect(body).toEqual({ deleted_teams: ['td-1', 'td-2'] });
      expect((await get('/team/info?team_id=td-1')).status).toBe(404);
      expect((await get('/user/info?user_id=td-member')).body.teams).toEqual([]);
      expect((await auditOf('team', 'td-1'))[0]).toMatchObject({ action: 'delete', actor: 'master_key' });
    });

    it("answers 409 naming the team's keys (alias, else hash prefix) and deletes nothing", async () => {
      await post('/team/new', { team_id: 'td-keys' });
      await newKey({ team_id: 'td-keys', key_alias: 'td-named' });
      const unnamed = await newKey({ team_id: 'td-keys' });
      const { status, body } = await post('/team/delete', { team_ids: ['td-keys'] });
      expect(status).toBe(409);
      expect(body.error.message).toContain('td-named');
      expect(body.error.message).toContain(unnamed.keyHash.slice(0, 8));
      expect(body.error.message).not.toContain(unnamed.keyHash);
      expect((await get('/team/info?team_id=td-keys')).status).toBe(200);
    });

    it('answers 404 naming the unknown ids and deletes nothing', async () => {
      await post('/team/new', { team_id: 'td-real' });
      const { status, body } = await post('/team/delete', { team_ids: ['td-real', 'td-ghost'] });
      expect(status).toBe(404);
      expect(body.error.message).toContain('td-ghost');
      expect(body.error.message).not.toContain('td-real');
      expect((await get('/team/info?team_id=td-real')).status).toBe(200);
    });

    it('answers 400 naming team_ids when it is missing or empty', async () => {
      const { status, body } = await post('/team/delete', { team_ids: [] });
      expect(status).toBe(400);
      expect(body.error.message).toContain('team_ids');
    });
  });

  describe('POST /user/update and /user/delete', () => {
    it('sets the fields given and replaces the memberships when teams is given', async () => {
      await post('/team/new', { team_id: 'uu-a' });
      await post('/team/new', { team_id: 'uu-b' });
      await post('/user/new', { user_id: 'uu-ada', user_email: 'ada@example.com', teams: ['uu-a'] });
      const { status, body } = await post('/user/update', {
        user_id: 'uu-ada',
        user_role: 'proxy_admin',
        teams: ['uu-b'],
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        user_id: 'uu-ada',
        user_role: 'proxy_admin',
        user_email: 'ada@example.com',
        teams: ['uu-b'],
      });
      expect((await get('/user/info?user_id=uu-ada')).body.teams).toEqual(['uu-b']);
      expect((await auditOf('user', 'uu-ada'))[0].changes).toEqual({
        user_role: { before: 'internal_user', after: 'proxy_admin' },
        teams: { before: ['uu-a'], after: ['uu-b'] },
      });
    });

    it('answers 404 for an unknown user, 400 naming a bad field or an unknown team', async () => {
      expect((await post('/user/update', { user_id: 'uu-ghost', max_budget: 1 })).status).toBe(404);
      await post('/user/new', { user_id: 'uu-bad' });
      const bad = await post('/user/update', { user_id: 'uu-bad', user_role: 'superuser' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('user_role');
      const team = await post('/user/update', { user_id: 'uu-bad', teams: ['uu-ghost-team'] });
      expect(team.status).toBe(400);
      expect(team.body.error.message).toContain('uu-ghost-team');
    });

    it('deletes users with no keys; 409 names the keys of one that has some; 404 names unknown ids', async () => {
      await post('/user/new', { user_id: 'ud-free' });
      await post('/user/new', { user_id: 'ud-keyed' });
      await newKey({ user_id: 'ud-keyed', key_alias: 'ud-key' });
      const conflict = await post('/user/delete', { user_ids: ['ud-free', 'ud-keyed'] });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.message).toContain('ud-key');
      const unknown = await post('/user/delete', { user_ids: ['ud-free', 'ud-ghost'] });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toContain('ud-ghost');
      const { status, body } = await post('/user/delete', { user_ids: ['ud-free'] });
      expect(status).toBe(200);
      expect(body).toEqual({ deleted_users: ['ud-free'] });
      expect((await get('/user/info?user_id=ud-free')).status).toBe(404);
      expect((await get('/user/info?user_id=ud-keyed')).status).toBe(200);
      expect((await auditOf('user', 'ud-free')).map((r: { action: string }) => r.action)).toEqual([
        'delete',
        'create',
      ]);
    });
  });

  describe('POST /organization/update and /organization/delete', () => {
    it('sets the fields given and audits the change', async () => {
      await post('/organization/new', {
        organization_id: 'ou-1',
        organization_alias: 'Acme',
        max_budget: 100,
      });
      const { status, body } = await post('/organization/update', {
        organization_id: 'ou-1',
        max_budget: 50,
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        organization_id: 'ou-1',
        organization_alias: 'Acme',
        max_budget: 50,
        teams: [],
      });
      expect((await get('/organization/info?organization_id=ou-1')).body.max_budget).toBe(50);
      expect((await auditOf('organization', 'ou-1'))[0].changes).toEqual({
        max_budget: { before: 100, after: 50 },
      });
    });

    it('answers 404 for an unknown organization and 400 naming a bad field', async () => {
      expect(
        (await post('/organization/update', { organization_id: 'ou-ghost', max_budget: 1 })).status,
      ).toBe(404);
      await post('/organization/new', { organization_id: 'ou-2', organization_alias: 'Two' });
      const bad = await post('/organization/update', { organization_id: 'ou-2', max_budget: -5 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('max_budget');
    });

    it('deletes an organization with no teams; 409 names the teams of one that has some', async () => {
      await post('/organization/new', { organization_id: 'od-empty', organization_alias: 'Empty' });
      await post('/organization/new', { organization_id: 'od-full', organization_alias: 'Full' });
      await post('/team/new', { team_id: 'od-team', organization_id: 'od-full' });
      const conflict = await post('/organization/delete', { organization_ids: ['od-full'] });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.message).toContain('od-team');
      const { status, body } = await post('/organization/delete', { organization_ids: ['od-empty'] });
      expect(status).toBe(200);
      expect(body).toEqual({ deleted_organizations: ['od-empty'] });
      expect((await get('/organization/info?organization_id=od-empty')).status).toBe(404);
      expect((await post('/organization/delete', { organization_ids: ['od-empty'] })).status).toBe(404);
    });
  });
});
