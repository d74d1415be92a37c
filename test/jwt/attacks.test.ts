// The attack set: every forged, stale, misdirected or oversized token is refused with the right status
// and a body that names nothing internal (expectRefused checks the body each time).
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
let other: TestIdp;
beforeAll(async () => {
  [idp, other] = await Promise.all([startIdp(), startIdp()]);
});
afterAll(() => Promise.all([idp.close(), other.close()]));

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const directory = () => new MemoryJwtDirectory({ teams: [{ team_id: 'ads' }] });
const admin = { scope: 'svc_proxy_admin' };
const adminRequest = (token: string) => request(token, '/key/generate');

describe('forged tokens: 401', () => {
  test('alg: none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...admin, iss: idp.issuer, exp: now() + 600 })}.`;
    const err = await expectRefused(
      authFor(idp).authenticate(adminRequest(token)),
      401,
      'algorithm_not_allowed',
      token,
    );
    expect(err.message).toMatch(/^Token algorithm `none` is not allowed/);
  });

  test('HS256 signed with the public key as the shared secret', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(idp.keys[0]!.publicJwk));
    const token = await new SignJWT({ ...admin, iss: idp.issuer, exp: now() + 600 })
      .setProtectedHeader({ alg: 'HS256', kid: idp.keys[0]!.kid })
      .sign(secret);
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'algorithm_not_allowed', token);
  });

  test('an ES256 header naming the RSA key (key-type confusion)', async () => {
    const token = await idp.sign(admin, { alg: 'ES256', kid: 'rsa-1', key: idp.keys[1]!.privateKey });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'unknown_signing_key', token);
  });

  test('a kid the provider does not publish', async () => {
    const token = await idp.sign(admin, { kid: 'attacker-key' });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'unknown_signing_key', token);
  });

  test('no kid, signed with a key of another provider', async () => {
    const token = await idp.sign(admin, { kid: null, key: other.keys[0]!.privateKey });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'invalid_signature', token);
  });

  test("a key of another configured issuer: a token naming issuer A signed with B's key", async () => {
    const auth = authFor(idp, { public_key_url: [idp.discoveryUrl, other.discoveryUrl] });
    const forged = await other.sign({ ...admin, iss: idp.issuer });
    await expectRefused(auth.authenticate(adminRequest(forged)), 401, 'invalid_signature', forged);
    // the same key vouches for its own issuer's tokens
    expect((await auth.authenticate(adminRequest(await other.sign(admin)))).kind).toBe('admin');
  });

  test('a tampered payload (scope raised after signing)', async () => {
    const [header, , signature] = (await idp.sign({ scope: 'openid', client_id: 'ads' })).split('.');
    const token = `${header}.${b64({ scope: 'svc_proxy_admin', iss: idp.issuer, exp: now() + 600 })}.${signature}`;
    await expectRefused(
      authFor(idp, {}, directory()).authenticate(adminRequest(token)),
      401,
      'invalid_signature',
      token,
    );
  });

  test('a truncated signature', async () => {
    const token = (await idp.sign(admin)).slice(0, -10);
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'invalid_signature', token);
  });

  test('an unknown crit header extension', async () => {
    const token = await idp.sign(admin, {
      header: { crit: ['x-unknown'], 'x-unknown': true },
      crit: { 'x-unknown': true },
    });
    const err = await expectRefused(
      authFor(idp).authenticate(adminRequest(token)),
      401,
      'invalid_token',
      token,
    );
    expect(err.message).toMatch(/crit/);
  });

  test('a token type other than JWT or at+jwt (an ID-token-shaped logout or DPoP proof)', async () => {
    const token = await idp.sign(admin, { typ: 'dpop+jwt' });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'token_type_not_allowed', token);
  });
});

describe('stale or misdirected tokens: 401', () => {
  test('expired', async () => {
    const token = await idp.sign({ ...admin, exp: now() - 60 });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'token_expired', token);
  });

  test('not yet valid', async () => {
    const token = await idp.sign({ ...admin, nbf: now() + 600 });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'token_not_yet_valid', token);
  });

  test('exp as a string', async () => {
    const token = await idp.sign({ ...admin, exp: String(now() + 600) });
    const err = await expectRefused(
      authFor(idp).authenticate(adminRequest(token)),
      401,
      'invalid_token',
      token,
    );
    expect(err.message).toBe('Token claim `exp` is invalid (must be a number)');
  });

  test('nbf as a string', async () => {
    const token = await idp.sign({ ...admin, nbf: String(now()) });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'invalid_token', token);
  });

  test('wrong audience', async () => {
    const token = await idp.sign({ ...admin, aud: 'api://someone-else' });
    await expectRefused(
      authFor(idp, { audience: 'api://gateway' }).authenticate(adminRequest(token)),
      401,
      'audience_not_allowed',
      token,
    );
  });

  test('wrong issuer (signed by the right key, naming an issuer nobody configured)', async () => {
    const token = await idp.sign({ ...admin, iss: 'https://evil.example' });
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'issuer_not_allowed', token);
  });

  test('a 1 MB token is refused before any parsing or network call', async () => {
    const before = idp.hits['/jwks'] ?? 0;
    const token = `${b64({ alg: 'RS256' })}.${'A'.repeat(1024 * 1024)}.sig`;
    await expectRefused(authFor(idp).authenticate(adminRequest(token)), 401, 'token_too_large');
    expect(idp.hits['/jwks'] ?? 0).toBe(before);
  });
});

describe('identity provider trouble: 503, never a pass', () => {
  test('JWKS down', async () => {
    const auth = authFor(idp, { public_key_url: idp.jwksUri });
    idp.faults.set('/jwks', { status: 503 });
    try {
      await expectRefused(
        auth.authenticate(adminRequest(await idp.sign(admin))),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/jwks');
    }
  });

  test('JWKS slow: refused after identity_provider_timeout, not hung', async () => {
    const auth = authFor(idp, { public_key_url: idp.jwksUri, identity_provider_timeout: 0.1 });
    idp.faults.set('/jwks', { delayMs: 3_000 });
    try {
      const started = Date.now();
      await expectRefused(
        auth.authenticate(adminRequest(await idp.sign(admin))),
        503,
        'identity_provider_unavailable',
      );
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      idp.faults.delete('/jwks');
    }
  });
});

describe('path tricks against route groups', () => {
  const teamAuth = () => authFor(idp, {}, directory());
  const teamToken = () => idp.sign({ client_id: 'ads' });

  test.each([
    '/v1/chat/completions/../../key/generate',
    '/v1/models/..%2f..%2fkey/generate',
    '/v1/%2e%2e/key/generate',
    '/anthropic/%252e%252e/key/generate',
    '/v1/chat/completions%00/../key/generate',
    '/v1\\..\\key\\generate',
    'http://gateway.internal/key/generate',
  ])('%s is refused (403) for a team token', async (path) => {
    await expectRefused(teamAuth().authenticate(request(await teamToken(), path)), 403, 'path_not_allowed');
  });

  test.each(['//key/generate', '/key/generate/', '/key//generate?x=/v1/chat/completions', '/KEY/generate'])(
    '%s is the management route (or no route) and stays closed to a team token',
    async (path) => {
      await expectRefused(
        teamAuth().authenticate(request(await teamToken(), path)),
        403,
        'route_not_allowed',
      );
    },
  );

  test('dot segments cannot borrow a public route: /./key/generate without a token', async () => {
    await expectRefused(
      teamAuth().authenticate(request(undefined, '/./key/generate')),
      403,
      'path_not_allowed',
    );
  });

  test('a public prefix cannot be stretched: /health/../key/generate', async () => {
    await expectRefused(
      teamAuth().authenticate(request(undefined, '/health/../key/generate')),
      403,
      'path_not_allowed',
    );
  });

  test('Host and forwarding headers change nothing: only the path is judged', async () => {
    const ctx = await teamAuth().authenticate(
      request(await teamToken(), '/v1/chat/completions', {
        headers: {
          host: 'admin.internal',
          'x-original-url': '/key/generate',
          'x-forwarded-prefix': '/key',
          'x-rewrite-url': '/key/generate',
        },
      }),
    );
    expect(ctx.kind).toBe('team');
    await expectRefused(
      teamAuth().authenticate(
        request(await teamToken(), '/key/generate', {
          headers: { 'x-original-url': '/v1/chat/completions' },
        }),
      ),
      403,
      'route_not_allowed',
    );
  });

  test('a trailing slash or doubled slash still reaches an allowed route', async () => {
    const auth = authFor(idp);
    const token = await idp.sign(admin);
    for (const path of ['/key/generate/', '//key//generate'])
      expect((await auth.authenticate(request(token, path))).kind).toBe('admin');
  });
});
