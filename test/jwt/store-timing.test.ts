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

/** What a case must decide: the context's fields, or the refusal's status and code. */
type Expected = Partial<AuthContext> | { status: number; code: string };

interface Case {
  settings: JwtAuthSettings;
  claims: Record<string, unknown>;
  expected: Expected;
  /** Records the authentication must have written (a created user or team, a membership). */
  stores?: Partial<Stored>;
  model?: string;
  teamHeader?: string;
  path?: string;
}

const base = { user_id_jwt_field: 'sub', team_ids_jwt_field: 'groups' } satisfies JwtAuthSettings;
const rbac = {
  enforce_rbac: true,
  object_id_jwt_field: 'oid',
  roles_jwt_field: 'roles',
  role_mappings: [{ role: 'gateway.consumer', internal_role: 'team' as const }],
} satisfies JwtAuthSettings;
const sync = {
  ...base,
  sync_user_role_and_teams: true,
  user_roles_jwt_field: 'roles',
} satisfies JwtAuthSettings;

const CASES: Array<[string, Case]> = [
  [
    'the first token team with access to the model',
    {
      settings: base,
      claims: { sub: 'alice', groups: ['team-a', 'team-b'] },
      model: 'claude-sonnet',
      expected: { kind: 'team', team_id: 'team-b', user_id: 'alice' },
    },
  ],
  [
    'a blocked team is passed over for the next',
    {
      settings: base,
      claims: { groups: ['team-blocked', 'team-a'] },
      expected: { kind: 'team', team_id: 'team-a' },
    },
  ],
  [
    'a blocked team is refused',
    {
      settings: base,
      claims: { sub: 'alice', groups: ['team-blocked'] },
      model: 'gpt-4o',
      expected: { status: 403, code: 'team_blocked' },
    },
  ],
  [
    'no token team has the model',
    {
      settings: base,
      claims: { groups: ['team-a', 'team-b'] },
      model: 'gemini',
      expected: { status: 403, code: 'model_not_allowed' },
    },
  ],
  [
    'x-svc-team-id picks a team',
    {
      settings: base,
      claims: { groups: ['team-a', 'team-b'] },
      model: 'claude-sonnet',
      teamHeader: 'team-b',
      expected: { kind: 'team', team_id: 'team-b' },
    },
  ],
  [
    'x-svc-team-id outside the token, after the user lookup',
    {
      settings: base,
      claims: { sub: 'alice', groups: ['team-a'] },
      teamHeader: 'team-b',
      expected: { status: 403, code: 'team_not_in_token' },
    },
  ],
  [
    'a missing user is created (user_id_upsert)',
    {
      settings: { ...base, user_id_upsert: true, user_email_jwt_field: 'email' },
      claims: { sub: 'bob', email: 'bob@example.com', groups: ['team-a'] },
      expected: { kind: 'team', team_id: 'team-a', user_id: 'bob' },
      stores: {
        users: { bob: { user_id: 'bob', user_role: 'internal_user', user_email: 'bob@example.com' } },
      },
    },
  ],
  [
    'a missing team is created (team_id_upsert)',
    {
      settings: { team_id_jwt_field: 'tid', team_id_upsert: true },
      claims: { tid: 'team-new' },
      expected: { kind: 'team', team_id: 'team-new' },
      stores: { teams: expect.arrayContaining(['team-new']) },
    },
  ],
  [
    "a team role's team need not exist",
    {
      settings: rbac,
      claims: { oid: 'obj-1', roles: ['gateway.consumer'] },
      expected: { kind: 'team', team_id: 'obj-1', internal_role: 'team' },
    },
  ],
  [
    'a team by its alias',
    {
      settings: { team_alias_jwt_field: 'team_alias' },
      claims: { team_alias: 'alpha' },
      model: 'gpt-4o',
      expected: { kind: 'team', team_id: 'team-a' },
    },
  ],
  [
    'an organization by its alias',
    {
      settings: { ...base, org_alias_jwt_field: 'org' },
      claims: { sub: 'alice', org: 'acme', groups: ['team-a'] },
      expected: { team_id: 'team-a', org_id: 'org-1' },
    },
  ],
  [
    'an admin by its stored role',
    {
      settings: base,
      claims: { sub: 'root' },
      path: '/key/generate',
      expected: { kind: 'admin', user_id: 'root', user_role: 'proxy_admin' },
    },
  ],
  [
    'a user synced with its teams (sync_user_role_and_teams)',
    {
      settings: sync,
      claims: { sub: 'alice', roles: [], groups: ['team-a'] },
      expected: { kind: 'team', team_id: 'team-a', user_id: 'alice' },
      stores: { memberships: { alice: ['team-a'] } },
    },
  ],
  [
    'enforced access without the user',
    {
      settings: { ...base, enforce_team_based_model_access: true },
      claims: { sub: 'nobody', groups: ['team-a'] },
      model: 'gpt-4o',
      expected: { status: 403, code: 'user_not_found' },
    },
  ],
];

/** What the directory holds after an authentication. */
interface Stored {
  users: Record<string, unknown>;
  teams: string[];
  memberships: Record<string, string[]>;
}

function stored(dir: MemoryJwtDirectory): Stored {
  return {
    users: Object.fromEntries(dir.users),
    teams: [...dir.teams.keys()],
    memberships: Object.fromEntries([...dir.memberships].map(([user, teams]) => [user, [...teams].sort()])),
  };
}

/** What an authentication decided: the context, or the refusal's status and code; and what it stored. */
async function outcome(deps: JwtAuthDeps, dir: MemoryJwtDirectory, c: Case, token: string) {
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
  return { decided, ...stored(dir) };
}

describe('a store that answers later decides as one that answers at once', () => {
  test.each(CASES)('%s', async (_name, c) => {
    const token = await idp.sign(c.claims);
    const atOnce = seeded();
    const later = seeded();
    const now = await outcome(atOnce, atOnce, c, token);
    expect(now.decided).toMatchObject(c.expected);
    if (c.stores) expect(now).toMatchObject(c.stores);
    expect(await outcome(answeringLater(later), later, c, token)).toEqual(now);
  });
});
