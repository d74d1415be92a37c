// JWT-to-virtual-key mapping (spec 5.7): the claim named by virtual_key_claim_field is looked up; an
// active mapping makes the request proceed as the mapped key; answers are cached.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type JwtAuthDeps, MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

const mapping = (
  over: Partial<{ is_active: boolean; jwt_claim_name: string; jwt_claim_value: string }> = {},
) => ({
  id: 'map-1',
  jwt_claim_name: 'email',
  jwt_claim_value: 'svc@acme.com',
  key: 'sk-mapped-virtual-key',
  is_active: true,
  ...over,
});

/** A directory that counts key-mapping lookups. */
function counting(dir: MemoryJwtDirectory): { dir: MemoryJwtDirectory; lookups: () => number } {
  let n = 0;
  const find = dir.findKeyMapping.bind(dir);
  (dir as { findKeyMapping: JwtAuthDeps['findKeyMapping'] }).findKeyMapping = (name, value) => {
    n++;
    return find(name, value);
  };
  return { dir, lookups: () => n };
}

describe('mapping flow', () => {
  test('an active mapping for the claim value makes the request proceed as the mapped key', async () => {
    const dir = new MemoryJwtDirectory({ keyMappings: [mapping()] });
    const ctx = await authFor(idp, { virtual_key_claim_field: 'email' }, dir).authenticate(
      request(await idp.sign({ email: 'svc@acme.com' })),
    );
    expect(ctx).toMatchObject({
      kind: 'virtual_key',
      via: 'jwt',
      virtual_key: 'sk-mapped-virtual-key',
      key_mapping_id: 'map-1',
    });
  });

  test('the claim field accepts dot notation; the mapping names the field as written', async () => {
    const dir = new MemoryJwtDirectory({ keyMappings: [mapping({ jwt_claim_name: 'user.email' })] });
    const ctx = await authFor(idp, { virtual_key_claim_field: 'user.email' }, dir).authenticate(
      request(await idp.sign({ user: { email: 'svc@acme.com' } })),
    );
    expect(ctx.virtual_key).toBe('sk-mapped-virtual-key');
  });

  test('without a mapping, standard JWT authentication with team controls applies', async () => {
    const dir = new MemoryJwtDirectory({ keyMappings: [mapping()], teams: [{ team_id: 'ads' }] });
    const ctx = await authFor(idp, { virtual_key_claim_field: 'email' }, dir).authenticate(
      request(await idp.sign({ email: 'other@acme.com', client_id: 'ads' })),
    );
    expect(ctx).toMatchObject({ kind: 'team', team_id: 'ads' });
  });

  test('an inactive mapping does not apply', async () => {
    const dir = new MemoryJwtDirectory({
      keyMappings: [mapping({ is_active: false })],
      teams: [{ team_id: 'ads' }],
    });
    const ctx = await authFor(idp, { virtual_key_claim_field: 'email' }, dir).authenticate(
      request(await idp.sign({ email: 'svc@acme.com', client_id: 'ads' })),
    );
    expect(ctx.kind).toBe('team');
  });

  test('the signature is verified before any lookup: a forged token never reaches the mapping', async () => {
    const { dir, lookups } = counting(new MemoryJwtDirectory({ keyMappings: [mapping()] }));
    const token = await idp.sign({ email: 'svc@acme.com' }, { kid: 'forged' });
    await expectRefused(
      authFor(idp, { virtual_key_claim_field: 'email' }, dir).authenticate(request(token)),
      401,
      'unknown_signing_key',
    );
    expect(lookups()).toBe(0);
  });
});

describe('virtual_key_mapping_cache_ttl', () => {
  test('answers are cached: one lookup for many requests', async () => {
    const { dir, lookups } = counting(new MemoryJwtDirectory({ keyMappings: [mapping()] }));
    const auth = authFor(idp, { virtual_key_claim_field: 'email' }, dir);
    const token = await idp.sign({ email: 'svc@acme.com' });
    for (let i = 0; i < 5; i++) await auth.authenticate(request(token));
    expect(lookups()).toBe(1);
  });

  test('a deactivated mapping still applies until the TTL passes, then no more', async () => {
    const dir = new MemoryJwtDirectory({ keyMappings: [mapping()], teams: [{ team_id: 'ads' }] });
    const auth = authFor(idp, { virtual_key_claim_field: 'email', virtual_key_mapping_cache_ttl: 0.05 }, dir);
    const token = await idp.sign({ email: 'svc@acme.com', client_id: 'ads' });
    expect((await auth.authenticate(request(token))).kind).toBe('virtual_key');
    dir.keyMappings.get('map-1')!.is_active = false;
    await new Promise((r) => setTimeout(r, 80));
    expect((await auth.authenticate(request(token))).kind).toBe('team');
  });

  test('clearCaches() applies a change at once', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'ads' }] });
    const auth = authFor(idp, { virtual_key_claim_field: 'email' }, dir);
    const token = await idp.sign({ email: 'svc@acme.com', client_id: 'ads' });
    expect((await auth.authenticate(request(token))).kind).toBe('team');
    dir.keyMappings.set('map-1', mapping());
    auth.clearCaches();
    expect((await auth.authenticate(request(token))).kind).toBe('virtual_key');
  });

  test('a TTL of 0 looks the mapping up on every request', async () => {
    const { dir, lookups } = counting(new MemoryJwtDirectory({ keyMappings: [mapping()] }));
    const auth = authFor(idp, { virtual_key_claim_field: 'email', virtual_key_mapping_cache_ttl: 0 }, dir);
    const token = await idp.sign({ email: 'svc@acme.com' });
    for (let i = 0; i < 3; i++) await auth.authenticate(request(token));
    expect(lookups()).toBe(3);
  });
});
