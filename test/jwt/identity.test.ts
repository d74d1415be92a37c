// Identity resolution (spec 5.3): admin scope, teams, aliases, organizations, users, end users, email
// domain, upserts, custom_validate, store failures; each through authenticate() against a real IdP.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createJwtAuth, type JwtAuthDeps, MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

describe('credentials', () => {
  test('no bearer token is 401', async () => {
    await expectRefused(authFor(idp).authenticate(request(undefined)), 401, 'missing_token');
  });

  test('a token in x-api-key is accepted (Anthropic SDK)', async () => {
    const token = await idp.sign({ scope: 'svc_proxy_admin' });
    const ctx = await authFor(idp).authenticate({ headers: { 'x-api-key': token }, path: '/key/generate' });
    expect(ctx.kind).toBe('admin');
  });

  test('fetch-style Headers work as well as Node header objects', async () => {
    const token = await idp.sign({ scope: 'svc_proxy_admin' });
    const headers = new Headers({ Authorization: `Bearer ${token}` });
    expect((await authFor(idp).authenticate({ headers, path: '/key/generate' })).kind).toBe('admin');
  });

  test('a bearer value that is not a JWT is 401 (the proxy tries virtual keys first)', async () => {
    await expectRefused(authFor(idp).authenticate(request('sk-1234')), 401, 'not_a_jwt');
  });

  test('a public route needs no token', async () => {
    const ctx = await authFor(idp).authenticate(request(undefined, '/health'));
    expect(ctx).toMatchObject({ kind: 'public', via: 'none', allowed_routes: ['public_routes'] });
  });

  test('public_allowed_routes replaces the public routes', async () => {
    const auth = authFor(idp, { public_allowed_routes: ['/v1/models'] });
    expect((await auth.authenticate(request(undefined, '/v1/models'))).kind).toBe('public');
    await expectRefused(auth.authenticate(request(undefined, '/health')), 401, 'missing_token');
  });
});

describe('key and time settings through createJwtAuth', () => {
  const adminToken = (claims: Record<string, unknown> = {}) =>
    idp.sign({ scope: 'svc_proxy_admin', ...claims });

  test('public_key_ttl: keys are fetched again once it has passed', async () => {
    // signed beforehand, so that only the first two authentications lie between the fetch and the
    // second (a loaded CI machine once took longer than a 50 ms TTL to sign a token)
    const tokens = await Promise.all([0, 1, 2].map((i) => adminToken({ jti: `ttl-${i}` })));
    const auth = authFor(idp, { public_key_url: idp.jwksUri, public_key_ttl: 0.25 });
    await auth.authenticate(request(tokens[0], '/key/generate'));
    const before = idp.hits['/jwks'] ?? 0;
    await auth.authenticate(request(tokens[1], '/key/generate'));
    await new Promise((r) => setTimeout(r, 300));
    await auth.authenticate(request(tokens[2], '/key/generate'));
    expect((idp.hits['/jwks'] ?? 0) - before).toBe(1);
  });

  test('public_key_refetch_cooldown: unknown kids fetch the keys at most once per cooldown', async () => {
    const auth = authFor(idp, { public_key_url: idp.jwksUri, public_key_refetch_cooldown: 60 });
    await auth.authenticate(request(await adminToken(), '/key/generate'));
    const before = idp.hits['/jwks'] ?? 0;
    for (const kid of ['a', 'b']) {
      await expectRefused(
        auth.authenticate(request(await idp.sign({}, { kid }), '/key/generate')),
        401,
        'unknown_signing_key',
      );
    }
    expect(idp.hits['/jwks'] ?? 0).toBe(before);
  });

  test('clock_tolerance widens the accepted skew', async () => {
    const token = await adminToken({ exp: Math.floor(Date.now() / 1000) - 20 });
    await expectRefused(authFor(idp).authenticate(request(token, '/key/generate')), 401, 'token_expired');
    expect(
      (await authFor(idp, { clock_tolerance: 30 }).authenticate(request(token, '/key/generate'))).kind,
    ).toBe('admin');
  });

  test('audience as a list accepts any of its entries', async () => {
    const auth = authFor(idp, { audience: ['api://a', 'api://b'] });
    expect(
      (await auth.authenticate(request(await adminToken({ aud: 'api://b' }), '/key/generate'))).kind,
    ).toBe('admin');
  });

  test('JWT_PUBLIC_KEY_URL and JWT_AUDIENCE are read from the environment when not set', async () => {
    const saved = { url: process.env.JWT_PUBLIC_KEY_URL, aud: process.env.JWT_AUDIENCE };
    process.env.JWT_PUBLIC_KEY_URL = `${idp.discoveryUrl},${idp.jwksUri}`;
    process.env.JWT_AUDIENCE = 'api://env';
    try {
      const auth = createJwtAuth({});
      expect(
        (await auth.authenticate(request(await adminToken({ aud: 'api://env' }), '/key/generate'))).kind,
      ).toBe('admin');
      await expectRefused(
        auth.authenticate(request(await adminToken({ aud: 'api://x' }), '/key/generate')),
        401,
        'audience_not_allowed',
      );
    } finally {
      for (const [name, value] of [
        ['JWT_PUBLIC_KEY_URL', saved.url],
        ['JWT_AUDIENCE', saved.aud],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('admin (spec 5.3.3, 5.3.8)', () => {
  test('the scope list holding svc_proxy_admin makes the token admin', async () => {
    const ctx = await authFor(idp).authenticate(
      request(await idp.sign({ scope: ['openid', 'svc_proxy_admin'] }), '/key/generate'),
    );
    expect(ctx).toMatchObject({ kind: 'admin', via: 'jwt', scopes: ['openid', 'svc_proxy_admin'] });
  });

  test('a space-separated scope string works the same', async () => {
    const ctx = await authFor(idp).authenticate(
      request(await idp.sign({ scope: 'openid svc_proxy_admin' }), '/team/new'),
    );
    expect(ctx.kind).toBe('admin');
  });

  test('admin_jwt_scope changes the admin scope', async () => {
    const auth = authFor(idp, { admin_jwt_scope: 'gateway.admin' });
    expect(
      (await auth.authenticate(request(await idp.sign({ scope: 'gateway.admin' }), '/key/generate'))).kind,
    ).toBe('admin');
    await expectRefused(
      auth.authenticate(request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate')),
      403,
      'no_identity',
    );
  });

  test('admins reach management, spend and info routes but not model routes by default', async () => {
    const auth = authFor(idp);
    const token = await idp.sign({ scope: 'svc_proxy_admin' });
    for (const path of ['/key/generate', '/spend/logs', '/global/spend', '/team/info']) {
      expect((await auth.authenticate(request(token, path))).kind).toBe('admin');
    }
    const err = await expectRefused(
      auth.authenticate(request(token, '/v1/chat/completions')),
      403,
      'route_not_allowed',
    );
    expect(err.message).toBe('Route `/v1/chat/completions` is not allowed for an admin token');
  });

  test('admin_allowed_routes replaces the admin routes', async () => {
    const auth = authFor(idp, { admin_allowed_routes: ['/v1/embeddings'] });
    const token = await idp.sign({ scope: 'svc_proxy_admin' });
    expect((await auth.authenticate(request(token, '/v1/embeddings'))).allowed_routes).toEqual([
      '/v1/embeddings',
    ]);
    await expectRefused(auth.authenticate(request(token, '/key/generate')), 403, 'route_not_allowed');
  });

  test('a user stored as proxy_admin is admin', async () => {
    const directory = new MemoryJwtDirectory({ users: [{ user_id: 'root', user_role: 'proxy_admin' }] });
    const auth = authFor(idp, { user_id_jwt_field: 'sub' }, directory);
    expect((await auth.authenticate(request(await idp.sign({ sub: 'root' }), '/key/generate'))).kind).toBe(
      'admin',
    );
  });
});

describe('teams (spec 5.3.1-2)', () => {
  const directory = () =>
    new MemoryJwtDirectory({
      teams: [
        { team_id: 'search', team_alias: 'search-team', models: ['gpt-4o'] },
        { team_id: 'ads', team_alias: 'shared' },
        { team_id: 'ads-2', team_alias: 'shared' },
        { team_id: 'frozen', blocked: true },
      ],
    });

  test('the team id is read from client_id by default', async () => {
    const ctx = await authFor(idp, {}, directory()).authenticate(
      request(await idp.sign({ client_id: 'search' })),
    );
    expect(ctx).toMatchObject({ kind: 'team', team_id: 'search', allowed_models: ['gpt-4o'] });
  });

  test('team_id_jwt_field: null stops reading client_id', async () => {
    const auth = authFor(idp, { team_id_jwt_field: null }, directory());
    await expectRefused(
      auth.authenticate(request(await idp.sign({ client_id: 'search' }))),
      403,
      'no_identity',
    );
  });

  test('team_id_jwt_field names another claim, with dot notation', async () => {
    const auth = authFor(idp, { team_id_jwt_field: 'app.team' }, directory());
    expect((await auth.authenticate(request(await idp.sign({ app: { team: 'ads' } })))).team_id).toBe('ads');
  });

  test('teams reach openai and info routes by default, not management or anthropic routes', async () => {
    const auth = authFor(idp, {}, directory());
    const token = await idp.sign({ client_id: 'ads' });
    expect((await auth.authenticate(request(token, '/v1/embeddings'))).kind).toBe('team');
    expect((await auth.authenticate(request(token, '/team/info', { method: 'GET' }))).kind).toBe('team');
    await expectRefused(auth.authenticate(request(token, '/key/generate')), 403, 'route_not_allowed');
    await expectRefused(auth.authenticate(request(token, '/v1/messages')), 403, 'route_not_allowed');
  });

  test('team_allowed_routes opens /v1/messages to teams', async () => {
    const auth = authFor(idp, { team_allowed_routes: ['openai_routes', 'anthropic_routes'] }, directory());
    expect(
      (await auth.authenticate(request(await idp.sign({ client_id: 'ads' }), '/v1/messages'))).kind,
    ).toBe('team');
  });

  test("a model outside the team's models is 403", async () => {
    const auth = authFor(idp, {}, directory());
    const err = await expectRefused(
      auth.authenticate(
        request(await idp.sign({ client_id: 'search' }), '/v1/chat/completions', { model: 'claude' }),
      ),
      403,
      'model_not_allowed',
    );
    expect(err.message).toBe('Team `search` has no access to model `claude`');
  });

  test('a team that does not exist is 403', async () => {
    await expectRefused(
      authFor(idp, {}, directory()).authenticate(request(await idp.sign({ client_id: 'ghost' }))),
      403,
      'team_not_found',
    );
  });

  test('team_id_upsert creates a missing team', async () => {
    const dir = directory();
    const ctx = await authFor(idp, { team_id_upsert: true }, dir).authenticate(
      request(await idp.sign({ client_id: 'new-team' })),
    );
    expect([ctx.team_id, dir.teams.has('new-team')]).toEqual(['new-team', true]);
  });

  test('a blocked team is 403', async () => {
    await expectRefused(
      authFor(idp, {}, directory()).authenticate(request(await idp.sign({ client_id: 'frozen' }))),
      403,
      'team_blocked',
    );
  });

  test('an alias resolves to its team', async () => {
    const auth = authFor(idp, { team_alias_jwt_field: 'team_name' }, directory());
    expect((await auth.authenticate(request(await idp.sign({ team_name: 'search-team' })))).team_id).toBe(
      'search',
    );
  });

  test('the id wins over the alias when the token has both', async () => {
    const auth = authFor(idp, { team_alias_jwt_field: 'team_name' }, directory());
    expect(
      (await auth.authenticate(request(await idp.sign({ client_id: 'ads', team_name: 'search-team' }))))
        .team_id,
    ).toBe('ads');
  });

  test('an alias shared by two teams is an error naming the alias', async () => {
    const auth = authFor(idp, { team_alias_jwt_field: 'team_name' }, directory());
    const err = await expectRefused(
      auth.authenticate(request(await idp.sign({ team_name: 'shared' }))),
      403,
      'ambiguous_alias',
    );
    expect(err.message).toBe('Team alias `shared` is shared by 2 teams; an alias must name one team');
  });

  test('an alias no team has is 403', async () => {
    const auth = authFor(idp, { team_alias_jwt_field: 'team_name' }, directory());
    await expectRefused(
      auth.authenticate(request(await idp.sign({ team_name: 'nobody' }))),
      403,
      'team_not_found',
    );
  });

  test('a team id claim given as a list uses its first entry, without crashing', async () => {
    const ctx = await authFor(idp, {}, directory()).authenticate(
      request(await idp.sign({ client_id: ['ads', 'search'] })),
    );
    expect(ctx.team_id).toBe('ads');
  });
});

describe('organizations', () => {
  const directory = () =>
    new MemoryJwtDirectory({
      teams: [{ team_id: 'ads' }],
      organizations: [
        { organization_id: 'org-1', organization_alias: 'acme' },
        { organization_id: 'org-2', organization_alias: 'twin' },
        { organization_id: 'org-3', organization_alias: 'twin' },
      ],
    });

  test('org_id_jwt_field gives the organization id', async () => {
    const auth = authFor(idp, { org_id_jwt_field: 'org' }, directory());
    expect(
      (await auth.authenticate(request(await idp.sign({ client_id: 'ads', org: 'org-9' })))).org_id,
    ).toBe('org-9');
  });

  test('org_alias_jwt_field resolves the alias', async () => {
    const auth = authFor(idp, { org_alias_jwt_field: 'org_name' }, directory());
    expect(
      (await auth.authenticate(request(await idp.sign({ client_id: 'ads', org_name: 'acme' })))).org_id,
    ).toBe('org-1');
  });

  test('the org id wins over the alias', async () => {
    const auth = authFor(idp, { org_id_jwt_field: 'org', org_alias_jwt_field: 'org_name' }, directory());
    const ctx = await auth.authenticate(
      request(await idp.sign({ client_id: 'ads', org: 'org-7', org_name: 'acme' })),
    );
    expect(ctx.org_id).toBe('org-7');
  });

  test('an organization alias shared by two organizations is an error naming the alias', async () => {
    const auth = authFor(idp, { org_alias_jwt_field: 'org_name' }, directory());
    const err = await expectRefused(
      auth.authenticate(request(await idp.sign({ client_id: 'ads', org_name: 'twin' }))),
      403,
      'ambiguous_alias',
    );
    expect(err.message).toMatch(/^Organization alias `twin` is shared by 2 organizations/);
  });

  test('an organization alias no organization has is 403', async () => {
    const auth = authFor(idp, { org_alias_jwt_field: 'org_name' }, directory());
    await expectRefused(
      auth.authenticate(request(await idp.sign({ client_id: 'ads', org_name: 'none' }))),
      403,
      'organization_not_found',
    );
  });
});

describe('users and end users', () => {
  test('user_id_jwt_field gives an internal user; the user need not exist', async () => {
    const ctx = await authFor(idp, { user_id_jwt_field: 'sub' }).authenticate(
      request(await idp.sign({ sub: 'alice' })),
    );
    expect(ctx).toMatchObject({ kind: 'internal_user', user_id: 'alice' });
    expect(ctx.user_role).toBeUndefined();
  });

  test('a field whose key holds a dot is addressed with a backslash', async () => {
    const auth = authFor(idp, { user_id_jwt_field: 'https://example\\.com/uid' });
    expect(
      (await auth.authenticate(request(await idp.sign({ 'https://example.com/uid': 'u-7' })))).user_id,
    ).toBe('u-7');
  });

  test('user_id_upsert creates the user with its email', async () => {
    const dir = new MemoryJwtDirectory();
    const auth = authFor(
      idp,
      { user_id_jwt_field: 'sub', user_email_jwt_field: 'email', user_id_upsert: true },
      dir,
    );
    await auth.authenticate(request(await idp.sign({ sub: 'bob', email: 'bob@acme.com' })));
    expect(dir.users.get('bob')).toEqual({
      user_id: 'bob',
      user_role: 'internal_user',
      user_email: 'bob@acme.com',
    });
  });

  test('the team wins over the user for the kind; both ids are kept', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'ads' }] });
    const ctx = await authFor(idp, { user_id_jwt_field: 'sub' }, dir).authenticate(
      request(await idp.sign({ sub: 'al', client_id: 'ads' })),
    );
    expect(ctx).toMatchObject({ kind: 'team', team_id: 'ads', user_id: 'al' });
  });

  test('object_id_jwt_field is the user id when no role says team', async () => {
    const ctx = await authFor(idp, { object_id_jwt_field: 'oid' }).authenticate(
      request(await idp.sign({ oid: 'obj-1' })),
    );
    expect(ctx).toMatchObject({ kind: 'internal_user', user_id: 'obj-1' });
  });

  test('end_user_id_jwt_field alone gives an end user', async () => {
    const ctx = await authFor(idp, { end_user_id_jwt_field: 'customer' }).authenticate(
      request(await idp.sign({ customer: 'c-9' })),
    );
    expect(ctx).toMatchObject({ kind: 'end_user', end_user_id: 'c-9' });
  });

  test('a token that names no admin, team, user or end user is 403', async () => {
    await expectRefused(authFor(idp).authenticate(request(await idp.sign({ sub: 'x' }))), 403, 'no_identity');
  });

  test('a view-only user may read info routes only', async () => {
    const dir = new MemoryJwtDirectory({
      users: [{ user_id: 'viewer', user_role: 'internal_user_view_only' }],
    });
    const auth = authFor(idp, { user_id_jwt_field: 'sub' }, dir);
    const token = await idp.sign({ sub: 'viewer' });
    expect((await auth.authenticate(request(token, '/key/info', { method: 'GET' }))).allowed_routes).toEqual([
      'info_routes',
    ]);
    await expectRefused(auth.authenticate(request(token, '/v1/chat/completions')), 403, 'route_not_allowed');
    await expectRefused(
      auth.authenticate(request(token, '/key/info', { method: 'DELETE' })),
      403,
      'route_not_allowed',
    );
  });
});

describe('user_allowed_email_domain (spec 5.3.10)', () => {
  const auth = () => authFor(idp, { user_id_jwt_field: 'sub', user_allowed_email_domain: 'acme.com' });

  test('an email of the domain is allowed (case-insensitive)', async () => {
    expect(
      (await auth().authenticate(request(await idp.sign({ sub: 'a', email: 'a@ACME.com' })))).user_email,
    ).toBe('a@ACME.com');
  });

  test.each(['a@evil.com', 'a@acme.com.evil.com', 'a@evil-acme.com', 'acme.com@evil.com'])(
    '%s is refused',
    async (email) => {
      await expectRefused(
        auth().authenticate(request(await idp.sign({ sub: 'a', email }))),
        403,
        'email_domain_not_allowed',
      );
    },
  );

  test('a user token without an email is refused', async () => {
    await expectRefused(
      auth().authenticate(request(await idp.sign({ sub: 'a' }))),
      403,
      'email_domain_not_allowed',
    );
  });

  test('without the setting every domain is allowed', async () => {
    const ctx = await authFor(idp, { user_id_jwt_field: 'sub', user_email_jwt_field: 'email' }).authenticate(
      request(await idp.sign({ sub: 'a', email: 'a@anywhere.org' })),
    );
    expect(ctx.user_email).toBe('a@anywhere.org');
  });
});

describe('custom_validate (spec 5.3.9)', () => {
  test('receives the verified payload; true lets the request through', async () => {
    const seen: unknown[] = [];
    const auth = authFor(idp, {
      custom_validate: (payload) => {
        seen.push(payload.scope);
        return true;
      },
    });
    await auth.authenticate(request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate'));
    expect(seen).toEqual(['svc_proxy_admin']);
  });

  test('false is 401 with the body {"error": "Invalid JWT token"}', async () => {
    const auth = authFor(idp, { custom_validate: () => false });
    const err = await expectRefused(
      auth.authenticate(request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate')),
      401,
      'custom_validate_failed',
    );
    expect(err.body).toEqual({ error: 'Invalid JWT token' });
  });

  // biome-ignore lint/suspicious/noThenProperty: a thenable is what this case is about
  const thenableFalse = { then: (resolve: (ok: boolean) => void) => resolve(false) };
  const thenThrows = Object.defineProperty({}, 'then', {
    get() {
      throw new Error('tenant db password=hunter2 unreachable');
    },
  });
  test.each([
    ['an asynchronous false', async () => false],
    ["another library's thenable of false", () => thenableFalse],
    ['an answer whose `then` throws when read', () => thenThrows],
  ])('%s is refused like a synchronous false', async (_case, validate) => {
    const auth = authFor(idp, { custom_validate: validate as () => Promise<boolean> });
    await expectRefused(
      auth.authenticate(request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate')),
      401,
      'custom_validate_failed',
    );
  });

  const leak = new Error('tenant db password=hunter2 unreachable');
  test.each([
    [
      'a throw',
      () => {
        throw leak;
      },
    ],
    ['a rejection', async () => Promise.reject(leak)],
  ])('%s is the same 401, without the thrown message', async (_case, validate) => {
    const auth = authFor(idp, { custom_validate: validate as () => Promise<boolean> });
    const err = await expectRefused(
      auth.authenticate(request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate')),
      401,
      'custom_validate_failed',
    );
    expect(JSON.stringify(err.body)).toBe('{"error":"Invalid JWT token"}');
  });
});

describe('the store behind deps', () => {
  test('a store that throws refuses with 503 and a safe message', async () => {
    const failing = new MemoryJwtDirectory();
    (failing as { getTeam: JwtAuthDeps['getTeam'] }).getTeam = () => {
      throw new Error('connect ECONNREFUSED 10.0.0.5:5432 (password authentication failed for "svc")');
    };
    const err = await expectRefused(
      authFor(idp, {}, failing).authenticate(request(await idp.sign({ client_id: 'ads' }))),
      503,
      'auth_store_unavailable',
    );
    expect(err.message).toBe('The authentication store is unavailable; try again later');
  });

  test('a store that rejects refuses with the same 503 and safe message', async () => {
    const failing = new MemoryJwtDirectory();
    (failing as { getTeam: JwtAuthDeps['getTeam'] }).getTeam = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
    };
    const err = await expectRefused(
      authFor(idp, {}, failing).authenticate(request(await idp.sign({ client_id: 'ads' }))),
      503,
      'auth_store_unavailable',
    );
    expect(err.message).toBe('The authentication store is unavailable; try again later');
    expect((err.cause as Error).message).toBe('connect ECONNREFUSED 10.0.0.5:5432');
  });

  test('async lookups work like synchronous ones', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'ads' }] });
    const deps: JwtAuthDeps = { ...bindAll(dir), getTeam: async (id) => dir.getTeam(id) };
    expect(
      (await authFor(idp, {}, deps).authenticate(request(await idp.sign({ client_id: 'ads' })))).team_id,
    ).toBe('ads');
  });
});

function bindAll(dir: MemoryJwtDirectory): JwtAuthDeps {
  return {
    getTeam: (id) => dir.getTeam(id),
    findTeamsByAlias: (a) => dir.findTeamsByAlias(a),
    findOrganizationsByAlias: (a) => dir.findOrganizationsByAlias(a),
    getUser: (id) => dir.getUser(id),
    upsertUser: (u) => dir.upsertUser(u),
    upsertTeam: (t) => dir.upsertTeam(t),
    getUserTeamIds: (id) => dir.getUserTeamIds(id),
    addTeamMember: (t, u) => dir.addTeamMember(t, u),
    removeTeamMember: (t, u) => dir.removeTeamMember(t, u),
    findKeyMapping: (n, v) => dir.findKeyMapping(n, v),
  };
}
