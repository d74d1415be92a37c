// Team selection (spec 5.3.5-6): x-svc-team-id, the first team with access to the model on every model
// route, and enforce_team_based_model_access.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

const directory = () =>
  new MemoryJwtDirectory({
    teams: [
      { team_id: 'team-a', models: ['gpt-4o'] },
      { team_id: 'team-b', models: ['claude-sonnet', 'gemini-2.5-pro'] },
      { team_id: 'team-c', models: ['claude-sonnet'], blocked: true },
      { team_id: 'team-all' },
    ],
    users: [{ user_id: 'alice' }],
  });
const settings = {
  user_id_jwt_field: 'sub',
  team_ids_jwt_field: 'groups',
  team_allowed_routes: ['openai_routes', 'anthropic_routes', 'google_routes', 'info_routes'],
};
const groupsToken = (groups: unknown, extra: Record<string, unknown> = {}) =>
  idp.sign({ sub: 'alice', groups, ...extra });

describe('x-svc-team-id', () => {
  test('picks one of the token teams', async () => {
    const auth = authFor(idp, settings, directory());
    const ctx = await auth.authenticate(
      request(await groupsToken(['team-a', 'team-b']), '/v1/chat/completions', {
        model: 'claude-sonnet',
        headers: { 'x-svc-team-id': 'team-b' },
      }),
    );
    expect(ctx).toMatchObject({ kind: 'team', team_id: 'team-b', team_ids: ['team-a', 'team-b'] });
  });

  test('may name the team_id_jwt_field team', async () => {
    const auth = authFor(idp, { ...settings, team_id_jwt_field: 'tid' }, directory());
    const ctx = await auth.authenticate(
      request(await groupsToken([], { tid: 'team-a' }), '/v1/models', {
        headers: { 'x-svc-team-id': 'team-a' },
      }),
    );
    expect(ctx.team_id).toBe('team-a');
  });

  test('a team not in the token is 403, even when it exists', async () => {
    const auth = authFor(idp, settings, directory());
    const err = await expectRefused(
      auth.authenticate(
        request(await groupsToken(['team-a']), '/v1/chat/completions', {
          headers: { 'x-svc-team-id': 'team-all' },
        }),
      ),
      403,
      'team_not_in_token',
    );
    expect(err.message).toBe("Team `team-all` (x-svc-team-id) is not one of the token's teams");
  });

  test('a header team without access to the model is 403, never another team', async () => {
    const auth = authFor(idp, settings, directory());
    await expectRefused(
      auth.authenticate(
        request(await groupsToken(['team-a', 'team-b']), '/v1/chat/completions', {
          model: 'gpt-4o',
          headers: { 'x-svc-team-id': 'team-b' },
        }),
      ),
      403,
      'model_not_allowed',
    );
  });
});

describe('without the header: the first team with access to the model', () => {
  test('on /v1/chat/completions', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-a', 'team-b']), '/v1/chat/completions', { model: 'claude-sonnet' }),
    );
    expect(ctx.team_id).toBe('team-b');
  });

  test('on /v1/messages too (Anthropic clients send no x-svc-team-id)', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-a', 'team-b']), '/v1/messages', { model: 'claude-sonnet' }),
    );
    expect(ctx.team_id).toBe('team-b');
  });

  test('on a Google-style route, the model is read from the path', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-a', 'team-b']), '/v1beta/models/gemini-2.5-pro:generateContent'),
    );
    expect(ctx.team_id).toBe('team-b');
  });

  test('token order decides between teams that both have access', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-all', 'team-a']), '/v1/chat/completions', { model: 'gpt-4o' }),
    );
    expect(ctx.team_id).toBe('team-all');
  });

  test('a blocked team is passed over for the next one with access', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-c', 'team-b']), '/v1/chat/completions', { model: 'claude-sonnet' }),
    );
    expect(ctx.team_id).toBe('team-b');
  });

  test('a blocked team that is the only one with access is 403', async () => {
    await expectRefused(
      authFor(idp, settings, directory()).authenticate(
        request(await groupsToken(['team-c', 'team-a']), '/v1/chat/completions', { model: 'claude-sonnet' }),
      ),
      403,
      'team_blocked',
    );
  });

  test('a groups claim given as one string is one team', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken('team-a'), '/v1/chat/completions', { model: 'gpt-4o' }),
    );
    expect(ctx.team_id).toBe('team-a');
  });

  test('when no team has access, the request goes on as the user (access not enforced)', async () => {
    const ctx = await authFor(idp, settings, directory()).authenticate(
      request(await groupsToken(['team-a']), '/v1/chat/completions', { model: 'mistral' }),
    );
    expect(ctx).toMatchObject({ kind: 'internal_user', user_id: 'alice' });
    expect(ctx.team_id).toBeUndefined();
  });
});

describe('enforce_team_based_model_access (spec 5.3.5)', () => {
  const enforced = { ...settings, enforce_team_based_model_access: true };

  test('allowed when the user exists, a group is a team and that team has the model', async () => {
    const ctx = await authFor(idp, enforced, directory()).authenticate(
      request(await groupsToken(['ghost', 'team-a']), '/v1/chat/completions', { model: 'gpt-4o' }),
    );
    expect(ctx.team_id).toBe('team-a');
  });

  test('a user missing from the user table is 403', async () => {
    const token = await idp.sign({ sub: 'mallory', groups: ['team-a'] });
    const err = await expectRefused(
      authFor(idp, enforced, directory()).authenticate(
        request(token, '/v1/chat/completions', { model: 'gpt-4o' }),
      ),
      403,
      'user_not_found',
    );
    expect(err.message).toBe('User `mallory` does not exist');
  });

  test('... unless user_id_upsert creates it', async () => {
    const dir = directory();
    const token = await idp.sign({ sub: 'newbie', groups: ['team-a'] });
    await authFor(idp, { ...enforced, user_id_upsert: true }, dir).authenticate(
      request(token, '/v1/chat/completions', { model: 'gpt-4o' }),
    );
    expect(dir.users.has('newbie')).toBe(true);
  });

  test('no group that exists as a team is 403', async () => {
    await expectRefused(
      authFor(idp, enforced, directory()).authenticate(
        request(await groupsToken(['ghost-1', 'ghost-2']), '/v1/chat/completions', { model: 'gpt-4o' }),
      ),
      403,
      'team_not_found',
    );
  });

  test('no team with access to the model is 403', async () => {
    const err = await expectRefused(
      authFor(idp, enforced, directory()).authenticate(
        request(await groupsToken(['team-a', 'team-b']), '/v1/chat/completions', { model: 'mistral' }),
      ),
      403,
      'model_not_allowed',
    );
    expect(err.message).toBe("None of the token's teams has access to model `mistral`");
  });

  test('a token without groups is 403 on a model call', async () => {
    await expectRefused(
      authFor(idp, enforced, directory()).authenticate(
        request(await idp.sign({ sub: 'alice' }), '/v1/chat/completions', { model: 'gpt-4o' }),
      ),
      403,
      'team_not_found',
    );
  });

  test('routes without a model are not checked', async () => {
    const ctx = await authFor(idp, enforced, directory()).authenticate(
      request(await groupsToken(['ghost']), '/v1/models', { method: 'GET' }),
    );
    expect(ctx.kind).toBe('internal_user');
  });
});
