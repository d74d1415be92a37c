// An identity is resolved step by step, each lookup waited for only when the store answers later
// (a database) and taken at once when it answers at once (a cache): both must decide alike.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AuthContext,
  type JwtAuthDeps,
  JwtAuthError,
  type JwtAuthSettings,
  MemoryJwtDirectory,
} from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

const seeded = () =>
  new MemoryJwtDirectory({
    teams: [
      { team_id: 'team-a', models: ['gpt-4o'], team_alias: 'alpha' },
      { team_id: 'team-b', models: ['claude-sonnet'] },
      { team_id: 'team-blocked', blocked: true },
    ],
    users: [{ user_id: 'alice' }, { user_id: 'root', user_role: 'proxy_admin' }],
    organizations: [{ organization_id: 'org-1', organization_alias: 'acme' }],
  });

/** The same directory, every method answering a turn later, as a database does. */
function answeringLater(dir: MemoryJwtDirectory): JwtAuthDeps {
  const later =
    <A extends unknown[], R>(method: (...args: A) => R) =>
    async (...args: A): Promise<Awaited<R>> => {
      await new Promise((resolve) => setImmediate(resolve));
      return method.apply(dir, args) as Awaited<R>;
    };
  return {
    getTeam: later(dir.getTeam),
    findTeamsByAlias: later(dir.findTeamsByAlias),
    findOrganizationsByAlias: later(dir.findOrganizationsByAlias),
    getUser: later(dir.getUser),
    upsertUser: later(dir.upsertUser),
    upsertTeam: later(dir.upsertTeam),
    getUserTeamIds: later(dir.getUserTeamIds),
    addTeamMember: later(dir.addTeamMember),
    removeTeamMember: later(dir.removeTeamMember),
    findKeyMapping: later(dir.findKeyMapping),
  };
}

interface Case {
  settings: JwtAuthSettings;
  claims: Record<string, unknown>;
  model?: string;
  teamHeader?: string;
  path?: string;
}

const base = { user_id_jwt_field: 'sub', team_ids_jwt_field: 'groups' } satisfies JwtAuthSettings;

const CASES: Array<[string, Case]> = [
  [
    'the first token team with access to the model',
    { settings: base, claims: { sub: 'alice', groups: ['team-a', 'team-b'] }, model: 'claude-sonnet' },
  ],
  [
    'a blocked team is refused',
    { settings: base, claims: { sub: 'alice', groups: ['team-blocked'] }, model: 'gpt-4o' },
  ],
  [
    'no token team has the model',
    { settings: base, claims: { groups: ['team-a', 'team-b'] }, model: 'gemini' },
  ],
  [
    'x-svc-team-id picks a team',
    {
      settings: base,
      claims: { groups: ['team-a', 'team-b'] },
      model: 'claude-sonnet',
      teamHeader: 'team-b',
    },
  ],
  [
    'x-svc-team-id outside the token',
    { settings: base, claims: { groups: ['team-a'] }, teamHeader: 'team-b' },
  ],
  [
    'a missing user is created (user_id_upsert)',
    {
      settings: { ...base, user_id_upsert: true },
      claims: { sub: 'bob', email: 'bob@example.com', groups: ['team-a'] },
    },
  ],
  [
    'a missing team is created (team_id_upsert)',
    { settings: { team_id_jwt_field: 'tid', team_id_upsert: true }, claims: { tid: 'team-new' } },
  ],
  [
    'a team by its alias',
    { settings: { team_alias_jwt_field: 'team_alias' }, claims: { team_alias: 'alpha' }, model: 'gpt-4o' },
  ],
  [
    'an organization by its alias',
    {
      settings: { ...base, org_alias_jwt_field: 'org' },
      claims: { sub: 'alice', org: 'acme', groups: ['team-a'] },
    },
  ],
  ['an admin by its stored role', { settings: base, claims: { sub: 'root' }, path: '/key/generate' }],
  [
    'enforced access without the user',
    {
      settings: { ...base, enforce_team_based_model_access: true },
      claims: { sub: 'nobody', groups: ['team-a'] },
      model: 'gpt-4o',
    },
  ],
];

/** What an authentication decided: the context, or the refusal's status and code; and what it stored. */
async function outcome(deps: JwtAuthDeps, dir: MemoryJwtDirectory, c: Case) {
  const token = await idp.sign(c.claims);
  const headers = c.teamHeader === undefined ? undefined : { 'x-svc-team-id': c.teamHeader };
  let decided: AuthContext | { status: number; code: string };
  try {
    decided = await authFor(idp, c.settings, deps).authenticate(
      request(token, c.path, { model: c.model, headers }),
    );
  } catch (error) {
    if (!JwtAuthError.isInstance(error)) throw error;
    decided = { status: error.status, code: error.code };
  }
  return { decided, users: [...dir.users.keys()], teams: [...dir.teams.keys()] };
}

describe('a store that answers later decides as one that answers at once', () => {
  test.each(CASES)('%s', async (_name, c) => {
    const atOnce = seeded();
    const later = seeded();
    const now = await outcome(atOnce, atOnce, c);
    expect(await outcome(answeringLater(later), later, c)).toEqual(now);
  });
});
