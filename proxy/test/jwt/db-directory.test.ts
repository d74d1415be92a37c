// The JWT module's directory over the proxy's database: the records the management routes write, as
// createJwtAuth reads them, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFor, request } from '../../../test/support/jwt/auth.js';
import { startIdp, type TestIdp } from '../../../test/support/jwt/idp.js';
import type { Database } from '../../src/db/database.js';
import { insertKeyMapping } from '../../src/db/jwt-key-mappings-repo.js';
import { insertOrganization } from '../../src/db/organizations-repo.js';
import { getTeam, insertTeam } from '../../src/db/teams-repo.js';
import { getUser, insertUser } from '../../src/db/users-repo.js';
import { DbJwtDirectory } from '../../src/jwt/db-directory.js';
import { closeTestDatabases, engines, openMigrated } from '../db-engines.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(async () => {
  await idp.close();
  await closeTestDatabases();
});

const HASH = 'cd'.repeat(32);

describe.each(engines)('DbJwtDirectory ($name)', (engine) => {
  let db: Database;
  let dir: DbJwtDirectory;
  beforeAll(async () => {
    db = await openMigrated(engine);
    dir = new DbJwtDirectory(db);
    await insertTeam(db, { team_id: 'search', team_alias: 'Search', models: ['gpt-4o'], blocked: true });
    await insertTeam(db, { team_id: 'bare' });
    await insertOrganization(db, { organization_id: 'org-1', organization_alias: 'Acme' });
    await insertUser(db, { user_id: 'ada', user_role: 'internal_user', user_email: 'ada@acme.com' });
    await insertKeyMapping(db, {
      id: 'map-1',
      jwt_claim_name: 'email',
      jwt_claim_value: 'svc@acme.com',
      key_hash: HASH,
      description: 'bot',
    });
  });

  it('reads a team with its models and block, leaving unset fields out', async () => {
    expect(await dir.getTeam('search')).toEqual({
      team_id: 'search',
      team_alias: 'Search',
      models: ['gpt-4o'],
      blocked: true,
    });
    expect(await dir.getTeam('bare')).toEqual({ team_id: 'bare', models: [], blocked: false });
    expect(await dir.getTeam('missing')).toBeUndefined();
  });

  it('finds teams and organizations by alias', async () => {
    expect((await dir.findTeamsByAlias('Search')).map((t) => t.team_id)).toEqual(['search']);
    expect(await dir.findOrganizationsByAlias('Acme')).toEqual([
      { organization_id: 'org-1', organization_alias: 'Acme' },
    ]);
  });

  it('reads, creates and updates users', async () => {
    expect(await dir.getUser('ada')).toEqual({
      user_id: 'ada',
      user_role: 'internal_user',
      user_email: 'ada@acme.com',
    });
    await dir.upsertUser({ user_id: 'ada', user_role: 'proxy_admin' });
    await dir.upsertUser({ user_id: 'bob', user_role: 'internal_user_view_only' });
    expect((await getUser(db, 'ada'))?.user_role).toBe('proxy_admin');
    expect(await dir.getUser('bob')).toEqual({ user_id: 'bob', user_role: 'internal_user_view_only' });
  });

  it('creates a missing team and keeps an existing one', async () => {
    await dir.upsertTeam({ team_id: 'new-team', models: ['m'] });
    await dir.upsertTeam({ team_id: 'search', models: [] });
    expect((await getTeam(db, 'new-team'))?.models).toEqual(['m']);
    expect((await getTeam(db, 'search'))?.models).toEqual(['gpt-4o']);
  });

  it('adds and removes team members', async () => {
    await dir.addTeamMember('search', 'carol');
    await dir.addTeamMember('bare', 'carol');
    expect(await dir.getUserTeamIds('carol')).toEqual(['bare', 'search']);
    await dir.removeTeamMember('search', 'carol');
    expect(await dir.getUserTeamIds('carol')).toEqual(['bare']);
  });

  it('answers a key mapping with the key hash, never a key', async () => {
    expect(await dir.findKeyMapping('email', 'svc@acme.com')).toEqual({
      id: 'map-1',
      jwt_claim_name: 'email',
      jwt_claim_value: 'svc@acme.com',
      key_hash: HASH,
      description: 'bot',
      is_active: true,
    });
    expect(await dir.findKeyMapping('email', 'other@acme.com')).toBeUndefined();
  });

  it('lets createJwtAuth resolve a mapped token to the key hash', async () => {
    const auth = authFor(idp, { virtual_key_claim_field: 'email' }, dir);
    const ctx = await auth.authenticate(request(await idp.sign({ email: 'svc@acme.com' })));
    expect(ctx).toMatchObject({ kind: 'virtual_key', virtual_key_hash: HASH, key_mapping_id: 'map-1' });
    expect(ctx.virtual_key).toBeUndefined();
  });
});
