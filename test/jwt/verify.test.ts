// Token verification against a real OpenID provider: key sets from discovery or a bare JWKS URL,
// issuer binding, caching, refetch on an unknown kid, audience, clock tolerance, token types.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeySets } from '../../src/jwt/key-sets.js';
import { verifyJwt } from '../../src/jwt/verify.js';
import { newKey, RESOURCE, startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
let other: TestIdp;
beforeAll(async () => {
  [idp, other] = await Promise.all([startIdp(), startIdp()]);
});
afterAll(() => Promise.all([idp.close(), other.close()]));

const keySets = (urls: string[], o: Partial<{ ttlMs: number; cooldownMs: number; timeoutMs: number }> = {}) =>
  new KeySets(urls, { ttlMs: 60_000, cooldownMs: 30_000, timeoutMs: 2_000, ...o });
const verify = (token: string, sets: KeySets, audiences?: string[], clockToleranceSeconds = 5) =>
  verifyJwt(token, sets, { audiences, clockToleranceSeconds });
const now = () => Math.floor(Date.now() / 1000);
const hitsOf = (p: TestIdp, path: string) => p.hits[path] ?? 0;

describe('accepted tokens', () => {
  test('an RS256 token signed with a key the discovery document publishes', async () => {
    const payload = await verify(await idp.sign({ sub: 'alice' }), keySets([idp.discoveryUrl]));
    expect(payload).toMatchObject({ sub: 'alice', iss: idp.issuer });
  });

  test('an ES256 token', async () => {
    const token = await idp.sign({ sub: 'bob' }, { alg: 'ES256', kid: 'ec-1', key: idp.keys[1]!.privateKey });
    expect((await verify(token, keySets([idp.discoveryUrl]))).sub).toBe('bob');
  });

  test('a token verified with a bare JWKS URL', async () => {
    expect((await verify(await idp.sign({ sub: 'carol' }), keySets([idp.jwksUri]))).sub).toBe('carol');
  });

  test('a real RFC 9068 access token (typ at+jwt) from the token endpoint', async () => {
    const token = await idp.clientCredentialsToken('svc_proxy_admin');
    const payload = await verify(token, keySets([idp.discoveryUrl]), [RESOURCE]);
    expect(payload).toMatchObject({ scope: 'svc_proxy_admin', aud: RESOURCE });
  });

  test('typ is optional (Kubernetes service account tokens carry none) and compared case-insensitively', async () => {
    const sets = keySets([idp.discoveryUrl]);
    for (const typ of [null, 'jwt', 'application/jwt', 'AT+JWT']) {
      await expect(verify(await idp.sign({ sub: 'x' }, { typ }), sets)).resolves.toMatchObject({ sub: 'x' });
    }
  });

  test('a token without kid is tried against every key of its type in the set', async () => {
    const second = await newKey('RS256', 'rsa-b');
    const idp2 = await startIdp({ keys: [await newKey('RS256', 'rsa-a'), second] });
    try {
      const token = await idp2.sign({ sub: 'dave' }, { kid: null, key: second.privateKey });
      expect((await verify(token, keySets([idp2.discoveryUrl]))).sub).toBe('dave');
    } finally {
      await idp2.close();
    }
  });
});

describe('audience (JWT_AUDIENCE)', () => {
  test('is checked when configured', async () => {
    const sets = keySets([idp.discoveryUrl]);
    await expect(
      verify(await idp.sign({ aud: 'api://gateway' }), sets, ['api://gateway']),
    ).resolves.toBeDefined();
    await expectRefused(
      verify(await idp.sign({ aud: 'api://other' }), sets, ['api://gateway']),
      401,
      'audience_not_allowed',
    );
  });

  test('a list of accepted audiences accepts any of them, and a token audience list matches on any entry', async () => {
    const sets = keySets([idp.discoveryUrl]);
    await expect(
      verify(await idp.sign({ aud: ['x', 'api://b'] }), sets, ['api://a', 'api://b']),
    ).resolves.toBeDefined();
  });

  test('a token without aud is refused when an audience is configured', async () => {
    await expectRefused(
      verify(await idp.sign({}), keySets([idp.discoveryUrl]), ['api://gateway']),
      401,
      'audience_not_allowed',
    );
  });

  test('is not checked when not configured', async () => {
    await expect(
      verify(await idp.sign({ aud: 'anything' }), keySets([idp.discoveryUrl])),
    ).resolves.toBeDefined();
  });
});

describe('time claims', () => {
  test('a token expired within the clock tolerance is accepted; beyond it, refused', async () => {
    const sets = keySets([idp.discoveryUrl]);
    await expect(verify(await idp.sign({ exp: now() - 3 }), sets, undefined, 5)).resolves.toBeDefined();
    await expectRefused(
      verify(await idp.sign({ exp: now() - 10 }), sets, undefined, 5),
      401,
      'token_expired',
    );
  });

  test('nbf within the clock tolerance is accepted; further ahead, refused', async () => {
    const sets = keySets([idp.discoveryUrl]);
    await expect(verify(await idp.sign({ nbf: now() + 3 }), sets, undefined, 5)).resolves.toBeDefined();
    await expectRefused(
      verify(await idp.sign({ nbf: now() + 60 }), sets, undefined, 5),
      401,
      'token_not_yet_valid',
    );
  });

  test('a token without exp is refused', async () => {
    const err = await expectRefused(
      verify(await idp.sign({}, { expiresIn: null }), keySets([idp.discoveryUrl])),
      401,
      'invalid_token',
    );
    expect(err.message).toBe('Token has no `exp` claim');
  });
});

describe('several identity providers (comma-separated JWT_PUBLIC_KEY_URL)', () => {
  test("each provider's tokens verify with its own key set", async () => {
    const sets = keySets([idp.discoveryUrl, other.discoveryUrl]);
    expect((await verify(await idp.sign({ sub: 'a' }), sets)).iss).toBe(idp.issuer);
    expect((await verify(await other.sign({ sub: 'b' }), sets)).iss).toBe(other.issuer);
  });

  test("a token's issuer picks its key set: the other provider's keys are not fetched", async () => {
    const sets = keySets([idp.discoveryUrl, other.discoveryUrl]);
    const before = hitsOf(other, '/jwks');
    await verify(await idp.sign({}), sets);
    expect(hitsOf(other, '/jwks')).toBe(before);
  });

  test('with bare JWKS URLs, each key set is tried in order (both providers publish a key `rsa-1`)', async () => {
    const sets = keySets([idp.jwksUri, other.jwksUri]);
    expect((await verify(await other.sign({ sub: 'b' }), sets)).sub).toBe('b');
    const unknown = await other.sign({ sub: 'b' }, { kid: 'nowhere', key: other.keys[0]!.privateKey });
    await expectRefused(verify(unknown, sets), 401, 'unknown_signing_key');
  });
});

describe('key caching', () => {
  test('once fetched, keys serve every later token without a network call', async () => {
    const sets = keySets([idp.discoveryUrl]);
    await verify(await idp.sign({}), sets);
    const jwks = hitsOf(idp, '/jwks');
    const discovery = hitsOf(idp, '/.well-known/openid-configuration');
    for (let i = 0; i < 20; i++) await verify(await idp.sign({ n: i }), sets);
    expect([hitsOf(idp, '/jwks'), hitsOf(idp, '/.well-known/openid-configuration')]).toEqual([
      jwks,
      discovery,
    ]);
  });

  test('keys are fetched again once public_key_ttl has passed', async () => {
    const sets = keySets([idp.jwksUri], { ttlMs: 50 });
    await verify(await idp.sign({}), sets);
    const before = hitsOf(idp, '/jwks');
    await new Promise((r) => setTimeout(r, 80));
    await verify(await idp.sign({}), sets);
    expect(hitsOf(idp, '/jwks')).toBe(before + 1);
  });

  test('a token with an unknown kid makes the key set be fetched again (key rotation)', async () => {
    const rotating = await startIdp();
    try {
      const sets = keySets([rotating.discoveryUrl], { cooldownMs: 0 });
      await verify(await rotating.sign({}), sets);
      const key = await rotating.rotate();
      const token = await rotating.sign({ sub: 'new' }, { kid: key.kid, key: key.privateKey });
      expect((await verify(token, sets)).sub).toBe('new');
      expect(hitsOf(rotating, '/jwks')).toBe(2);
    } finally {
      await rotating.close();
    }
  });

  test('unknown kids fetch the key set at most once per cooldown', async () => {
    const sets = keySets([idp.jwksUri], { cooldownMs: 60_000 });
    await verify(await idp.sign({}), sets);
    const before = hitsOf(idp, '/jwks');
    for (const kid of ['k1', 'k2', 'k3']) {
      await expectRefused(verify(await idp.sign({}, { kid }), sets), 401, 'unknown_signing_key');
    }
    expect(hitsOf(idp, '/jwks')).toBe(before);
  });
});

describe('identity provider unavailable: refused with 503, never let through', () => {
  test('JWKS endpoint down', async () => {
    idp.faults.set('/jwks', { status: 500 });
    try {
      await expectRefused(
        verify(await idp.sign({}), keySets([idp.jwksUri])),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/jwks');
    }
  });

  test('after a failed fetch the provider is not asked again within the retry window: requests fail at once', async () => {
    // windows a loaded CI machine keeps to: the second refusal comes well within the retry window,
    // and "at once" is well short of the fetch timeout it would otherwise wait for
    const sets = keySets([idp.jwksUri], { cooldownMs: 400, timeoutMs: 200 });
    const [first, second] = await Promise.all([idp.sign({}), idp.sign({})]);
    idp.faults.set('/jwks', { delayMs: 2_000 });
    try {
      await expectRefused(verify(first, sets), 503, 'identity_provider_unavailable');
      const before = hitsOf(idp, '/jwks');
      const started = Date.now();
      await expectRefused(verify(second, sets), 503, 'identity_provider_unavailable');
      expect([hitsOf(idp, '/jwks') - before, Date.now() - started < 100]).toEqual([0, true]);
      idp.faults.delete('/jwks');
      await new Promise((r) => setTimeout(r, 450));
      await expect(verify(await idp.sign({ sub: 'back' }), sets)).resolves.toMatchObject({ sub: 'back' });
    } finally {
      idp.faults.delete('/jwks');
    }
  });

  test('a discovery document that failed is not fetched again within the retry window', async () => {
    const sets = keySets([idp.discoveryUrl], { cooldownMs: 150 });
    idp.faults.set('/.well-known/openid-configuration', { status: 500 });
    try {
      await expectRefused(verify(await idp.sign({}), sets), 503, 'identity_provider_unavailable');
      const before = hitsOf(idp, '/.well-known/openid-configuration');
      await expectRefused(verify(await idp.sign({}), sets), 503, 'identity_provider_unavailable');
      expect(hitsOf(idp, '/.well-known/openid-configuration')).toBe(before);
    } finally {
      idp.faults.delete('/.well-known/openid-configuration');
    }
  });

  test('JWKS endpoint slower than identity_provider_timeout', async () => {
    idp.faults.set('/jwks', { delayMs: 2_000 });
    try {
      const started = Date.now();
      await expectRefused(
        verify(await idp.sign({}), keySets([idp.jwksUri], { timeoutMs: 100 })),
        503,
        'identity_provider_unavailable',
      );
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      idp.faults.delete('/jwks');
    }
  });

  test('discovery document unreadable', async () => {
    idp.faults.set('/.well-known/openid-configuration', { drop: true });
    try {
      await expectRefused(
        verify(await idp.sign({}), keySets([idp.discoveryUrl])),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/.well-known/openid-configuration');
    }
  });

  test('a key set URL that answers with something other than a JWKS', async () => {
    idp.faults.set('/jwks', { body: '{"keys":"none"}' });
    try {
      await expectRefused(
        verify(await idp.sign({}), keySets([idp.jwksUri])),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/jwks');
    }
  });
});
