// checkCredential: what a server checks before it reads a request's body. The token must verify and
// pass custom_validate, as authenticate requires; who it is, routes and models are left to
// authenticate, which given the check verifies and validates the token no more.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
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
  test('runs custom_validate; authenticate given the check runs it no more', async () => {
    const { withValidate, validated } = counted();
    const token = await idp.sign({ sub: 'alice' });
    const checked = await withValidate.checkCredential(request(token));
    expect(validated).toEqual(['alice']);
    const ctx = await withValidate.authenticate({
      ...request(token, '/v1/chat/completions', { model: 'gpt-4o' }),
      checked,
    });
    expect([ctx.user_id, validated]).toEqual(['alice', ['alice']]);
  });

  test('refuses a token custom_validate refuses', async () => {
    const auth = authFor(idp, { custom_validate: () => false });
    await expectRefused(
      auth.checkCredential(request(await idp.sign({ sub: 'alice' }))),
      401,
      'custom_validate_failed',
    );
  });

  test('refuses with a rejected promise, never a throw, whatever is wrong', async () => {
    const { auth } = counted();
    const missing = { headers: {}, path: '/v1/chat/completions' };
    const garbled = request('not-a-jwt');
    const calls = [
      [() => auth.checkCredential(missing), 'missing_token'],
      [() => auth.authenticate(missing), 'missing_token'],
      [() => auth.checkCredential(garbled), 'not_a_jwt'],
      [() => auth.authenticate(garbled), 'not_a_jwt'],
    ] as const;
    for (const [call, code] of calls) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      await expectRefused(pending!, 401, code);
    }
  });

  test('a check is ignored for another token, or by another auth', async () => {
    const { withValidate, validated } = counted();
    const checked = await withValidate.checkCredential(request(await idp.sign({ sub: 'alice' })));
    const other = await idp.sign({ sub: 'bob' });
    await withValidate.authenticate({ ...request(other), checked });
    await counted().withValidate.authenticate({ ...request(other), checked });
    expect(validated).toEqual(['alice', 'bob']);
  });

  test("is read with the authenticated request's own method: a view-only user's GET check passes no DELETE", async () => {
    const auth = authFor(
      idp,
      { user_id_jwt_field: 'sub' },
      new MemoryJwtDirectory({ users: [{ user_id: 'viewer', user_role: 'internal_user_view_only' }] }),
    );
    const token = await idp.sign({ sub: 'viewer' });
    const checked = await auth.checkCredential(request(token, '/key/info', { method: 'GET' }));
    await expectRefused(
      auth.authenticate({ ...request(token, '/key/info', { method: 'DELETE' }), checked }),
      403,
      'route_not_allowed',
    );
  });

  test('is used once: a second authenticate with it checks the token again', async () => {
    const { withValidate, validated } = counted();
    const token = await idp.sign({ sub: 'alice' });
    const checked = await withValidate.checkCredential(request(token));
    await withValidate.authenticate({ ...request(token), checked });
    await withValidate.authenticate({ ...request(token), checked });
    expect(validated).toEqual(['alice', 'alice']);
  });

  test('reveals nothing of the token, and a look-alike of it is no check', async () => {
    const { withValidate, validated } = counted();
    const token = await idp.sign({ sub: 'alice' });
    const checked = await withValidate.checkCredential(request(token));
    expect([Object.keys(checked), JSON.stringify(checked)]).toEqual([[], '{}']);
    const lookAlike = Object.freeze({}) as typeof checked;
    await withValidate.authenticate({ ...request(token), checked: lookAlike });
    expect(validated).toEqual(['alice', 'alice']);
  });

  test('cannot be read or made through its constructor', async () => {
    const { withValidate, validated } = counted();
    const token = await idp.sign({ sub: 'alice' });
    const checked = await withValidate.checkCredential(request(token));
    const Maker = (checked as unknown as { constructor: new (...args: unknown[]) => unknown }).constructor;
    expect(
      Object.getOwnPropertyNames(Maker).filter((name) => typeof Reflect.get(Maker, name) === 'function'),
    ).toEqual([]);
    expect(() => new Maker(undefined, { credential: { kind: 'public' } })).toThrow(TypeError);
    expect(Object.isFrozen(checked)).toBe(true);
    await withValidate.authenticate({ ...request(token), checked });
    expect(validated).toEqual(['alice']);
  });

  test('does not outlive its token', async () => {
    const { auth } = counted();
    const token = await idp.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) + 60 });
    const checked = await auth.checkCredential(request(token));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 120_000);
      await expectRefused(auth.authenticate({ ...request(token), checked }), 401, 'token_expired', token);
    } finally {
      vi.useRealTimers();
    }
  });

  test('leaves the model to authenticate: a team without it passes the check, then is refused', async () => {
    const { auth } = counted();
    const token = await idp.sign({ sub: 'alice', groups: ['team-a'] });
    const checked = await auth.checkCredential(request(token));
    await expectRefused(
      auth.authenticate({ ...request(token, '/v1/chat/completions', { model: 'claude-sonnet' }), checked }),
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
    await expect(auth.checkCredential(request(undefined, '/health'))).resolves.toBeDefined();
  });
});
