// checkCredential: what a server checks before it reads a request's body. The token must verify, as
// authenticate requires; who it is, custom_validate, routes and models are left to authenticate, which
// then runs each once.
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

/** An auth instance whose custom_validate records the `sub` of each payload it is given. */
function counted() {
  const validated: unknown[] = [];
  const auth = authFor(
    idp,
    { user_id_jwt_field: 'sub', team_ids_jwt_field: 'groups', enforce_team_based_model_access: true },
    new MemoryJwtDirectory({
      teams: [{ team_id: 'team-a', models: ['gpt-4o'] }],
      users: [{ user_id: 'alice' }],
    }),
  );
  const withValidate = authFor(
    idp,
    {
      user_id_jwt_field: 'sub',
      custom_validate: (payload) => {
        validated.push(payload.sub);
        return true;
      },
    },
    new MemoryJwtDirectory({ users: [{ user_id: 'alice' }] }),
  );
  return { auth, withValidate, validated };
}

describe('checkCredential', () => {
  test('passes a token that verifies, without running custom_validate', async () => {
    const { withValidate, validated } = counted();
    await expect(
      withValidate.checkCredential(request(await idp.sign({ sub: 'alice' }))),
    ).resolves.toBeUndefined();
    expect(validated).toEqual([]);
  });

  test('then authenticate runs custom_validate once', async () => {
    const { withValidate, validated } = counted();
    const token = await idp.sign({ sub: 'alice' });
    await withValidate.checkCredential(request(token));
    const ctx = await withValidate.authenticate(request(token, '/v1/chat/completions', { model: 'gpt-4o' }));
    expect([ctx.user_id, validated]).toEqual(['alice', ['alice']]);
  });

  test('leaves the model to authenticate: a team without it passes the check, then is refused', async () => {
    const { auth } = counted();
    const token = await idp.sign({ sub: 'alice', groups: ['team-a'] });
    await expect(auth.checkCredential(request(token))).resolves.toBeUndefined();
    await expectRefused(
      auth.authenticate(request(token, '/v1/chat/completions', { model: 'claude-sonnet' })),
      403,
      'model_not_allowed',
    );
  });

  test('refuses an expired token as authenticate does', async () => {
    const token = await idp.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 600 });
    await expectRefused(counted().auth.checkCredential(request(token)), 401, 'token_expired', token);
  });

  test('refuses a token whose signature does not verify', async () => {
    const token = await idp.sign({ sub: 'alice' });
    const [header, claims] = token.split('.');
    const forged = `${header}.${claims}.${Buffer.from('not the signature').toString('base64url')}`;
    await expectRefused(counted().auth.checkCredential(request(forged)), 401, 'invalid_signature', forged);
  });

  test('refuses a request with no token, but for a public route', async () => {
    const { auth } = counted();
    await expectRefused(auth.checkCredential(request(undefined)), 401, 'missing_token');
    await expect(auth.checkCredential(request(undefined, '/health'))).resolves.toBeUndefined();
  });
});
