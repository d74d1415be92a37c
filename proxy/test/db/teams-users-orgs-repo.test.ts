import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DuplicateError } from '../../src/db/db-errors.js';
import {
  addTeamMember,
  removeTeamMember,
  teamIdsOfUser,
  userIdsOfTeam,
} from '../../src/db/memberships-repo.js';
import {
  findOrganizationsByAlias,
  getOrganization,
  insertOrganization,
} from '../../src/db/organizations-repo.js';
import {
  findTeamsByAlias,
  getTeam,
  insertTeam,
  insertTeamIfMissing,
  setTeamBlocked,
  teamIdsOfOrganization,
} from '../../src/db/teams-repo.js';
import { getUser, insertUser, upsertUser } from '../../src/db/users-repo.js';
import { closeTestDatabases, engines, openMigrated } from '../db-engines.js';

afterAll(closeTestDatabases);

let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

describe.each(engines)('teams repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('stores a team and reads it back by id, with every field', async () => {
    const team_id = fresh('team');
    const stored = await insertTeam(db, {
      team_id,
      team_alias: fresh('alias'),
      organization_id: 'org-1',
      models: ['gpt-4o'],
      max_budget: 5,
      rpm_limit: 10,
      tpm_limit: 1000,
      metadata: { cost_center: 7 },
    });
    expect(stored).toMatchObject({
      team_id,
      organization_id: 'org-1',
      models: ['gpt-4o'],
      blocked: false,
      max_budget: 5,
      spend: 0,
      rpm_limit: 10,
      tpm_limit: 1000,
      metadata: { cost_center: 7 },
    });
    expect(stored.created_at).toBeInstanceOf(Date);
    expect(await getTeam(db, team_id)).toEqual(stored);
  });

  it('answers undefined for a team it does not hold', async () => {
    expect(await getTeam(db, fresh('missing'))).toBeUndefined();
  });

  it('refuses a second team with the same alias as a DuplicateError naming team_alias', async () => {
    const team_alias = fresh('alias');
    await insertTeam(db, { team_id: fresh('team'), team_alias });
    const second = insertTeam(db, { team_id: fresh('team'), team_alias });
    await expect(second).rejects.toBeInstanceOf(DuplicateError);
    await expect(second).rejects.toMatchObject({ field: 'team_alias', status: 409 });
  });

  it('refuses the same team id twice as a DuplicateError naming team_id', async () => {
    const team_id = fresh('team');
    await insertTeam(db, { team_id });
    await expect(insertTeam(db, { team_id })).rejects.toMatchObject({ field: 'team_id' });
  });

  it('finds teams by alias', async () => {
    const team_alias = fresh('alias');
    const team = await insertTeam(db, { team_id: fresh('team'), team_alias });
    expect(await findTeamsByAlias(db, team_alias)).toEqual([team]);
    expect(await findTeamsByAlias(db, fresh('alias'))).toEqual([]);
  });

  it('inserts a missing team, and leaves an existing one as it is', async () => {
    const team_id = fresh('team');
    expect(await insertTeamIfMissing(db, { team_id, models: ['a'] })).toBe(true);
    expect(await insertTeamIfMissing(db, { team_id, models: ['b'] })).toBe(false);
    expect((await getTeam(db, team_id))?.models).toEqual(['a']);
  });

  it('blocks and unblocks a team, and answers undefined for a missing one', async () => {
    const team_id = fresh('team');
    await insertTeam(db, { team_id });
    expect(await setTeamBlocked(db, team_id, true)).toMatchObject({ team_id, blocked: true });
    expect((await getTeam(db, team_id))?.blocked).toBe(true);
    expect(await setTeamBlocked(db, team_id, false)).toMatchObject({ blocked: false });
    expect(await setTeamBlocked(db, fresh('missing'), true)).toBeUndefined();
  });

  it("lists an organization's team ids, sorted", async () => {
    const organization_id = fresh('org');
    await insertTeam(db, { team_id: 'zz-team', organization_id });
    await insertTeam(db, { team_id: 'aa-team', organization_id });
    expect(await teamIdsOfOrganization(db, organization_id)).toEqual(['aa-team', 'zz-team']);
  });
});

describe.each(engines)('memberships repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('adds members both ways round, once each, sorted', async () => {
    const [a, b] = [fresh('team'), fresh('team')];
    await insertTeam(db, { team_id: a });
    await insertTeam(db, { team_id: b });
    await addTeamMember(db, b, 'user-x');
    await addTeamMember(db, a, 'user-x');
    await addTeamMember(db, a, 'user-x');
    await addTeamMember(db, a, 'user-w');
    expect(await teamIdsOfUser(db, 'user-x')).toEqual([a, b]);
    expect(await userIdsOfTeam(db, a)).toEqual(['user-w', 'user-x']);
  });

  it('removes a membership, and says whether there was one', async () => {
    const team_id = fresh('team');
    await insertTeam(db, { team_id });
    await addTeamMember(db, team_id, 'user-y');
    expect(await removeTeamMember(db, team_id, 'user-y')).toBe(true);
    expect(await removeTeamMember(db, team_id, 'user-y')).toBe(false);
    expect(await userIdsOfTeam(db, team_id)).toEqual([]);
  });

  it('refuses a membership of a team that does not exist', async () => {
    await expect(addTeamMember(db, fresh('missing'), 'user-z')).rejects.toThrow();
  });
});

describe.each(engines)('users repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('stores a user and reads it back', async () => {
    const user_id = fresh('user');
    const stored = await insertUser(db, {
      user_id,
      user_role: 'internal_user',
      user_email: 'ada@example.com',
      max_budget: 3,
      metadata: { desk: 4 },
    });
    expect(stored).toMatchObject({
      user_id,
      user_role: 'internal_user',
      user_email: 'ada@example.com',
      max_budget: 3,
      spend: 0,
      metadata: { desk: 4 },
    });
    expect(await getUser(db, user_id)).toEqual(stored);
  });

  it('refuses the same user id twice as a DuplicateError naming user_id', async () => {
    const user_id = fresh('user');
    await insertUser(db, { user_id });
    await expect(insertUser(db, { user_id })).rejects.toMatchObject({ field: 'user_id', status: 409 });
  });

  it('upsert creates a missing user', async () => {
    const user_id = fresh('user');
    await upsertUser(db, { user_id, user_role: 'proxy_admin' });
    expect(await getUser(db, user_id)).toMatchObject({ user_role: 'proxy_admin', user_email: null });
  });

  it('upsert changes only the fields given', async () => {
    const user_id = fresh('user');
    await insertUser(db, { user_id, user_role: 'internal_user', user_email: 'b@example.com', max_budget: 2 });
    await upsertUser(db, { user_id, user_role: 'proxy_admin' });
    expect(await getUser(db, user_id)).toMatchObject({
      user_role: 'proxy_admin',
      user_email: 'b@example.com',
      max_budget: 2,
    });
  });
});

describe.each(engines)('organizations repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('stores an organization and reads it back by id and by alias', async () => {
    const organization_id = fresh('org');
    const organization_alias = fresh('acme');
    const stored = await insertOrganization(db, {
      organization_id,
      organization_alias,
      models: ['gpt-4o'],
      max_budget: 100,
    });
    expect(stored).toMatchObject({ organization_id, organization_alias, models: ['gpt-4o'], spend: 0 });
    expect(await getOrganization(db, organization_id)).toEqual(stored);
    expect(await findOrganizationsByAlias(db, organization_alias)).toEqual([stored]);
    expect(await getOrganization(db, fresh('missing'))).toBeUndefined();
  });

  it('refuses a second organization with the same alias as a DuplicateError', async () => {
    const organization_alias = fresh('acme');
    await insertOrganization(db, { organization_id: fresh('org'), organization_alias });
    const second = insertOrganization(db, { organization_id: fresh('org'), organization_alias });
    await expect(second).rejects.toMatchObject({ field: 'organization_alias', status: 409 });
  });
});
