import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database.js';
import { addTeamMember, removeTeamMember, teamIdsOfUser } from '../db/memberships-repo.js';
import {
  deleteOrganizations,
  getOrganization,
  ORGANIZATIONS_TABLE,
  type OrganizationRow,
} from '../db/organizations-repo.js';
import { deleteTeams, TEAMS_TABLE, type TeamRow, teamIdsOfOrganization } from '../db/teams-repo.js';
import { deleteUsers, USERS_TABLE, type UserRow } from '../db/users-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { withBudgetPeriod } from './budget-fields.js';
import { authenticateAdmin, idField, updateSchemaOf } from './management-fields.js';
import { newOrganizationSchema } from './organizations.js';
import { deleteOwners, idsSchema, keyDependents, type OwnerKind, updateOwner } from './owner-changes.js';
import { newTeamSchema } from './teams.js';
import { newUserSchema, requireTeams, userView } from './users.js';

const TEAM: OwnerKind<TeamRow> = {
  type: 'team',
  idField: 'team_id',
  table: TEAMS_TABLE,
  remove: deleteTeams,
  dependents: (tx, ids) => keyDependents(tx, 'team', 'team_id', ids),
};

const USER: OwnerKind<UserRow> = {
  type: 'user',
  idField: 'user_id',
  table: USERS_TABLE,
  remove: deleteUsers,
  dependents: (tx, ids) => keyDependents(tx, 'user', 'user_id', ids),
};

const ORGANIZATION: OwnerKind<OrganizationRow> = {
  type: 'organization',
  idField: 'organization_id',
  table: ORGANIZATIONS_TABLE,
  remove: deleteOrganizations,
  // an organization's teams and keys would be left naming nothing
  dependents: async (tx, ids) => {
    const teams: string[] = [];
    for (const id of ids) {
      const teamIds = await teamIdsOfOrganization(tx, id);
      if (teamIds.length > 0) teams.push(`organization \`${id}\` has teams ${teamIds.join(', ')}`);
    }
    return [...teams, ...(await keyDependents(tx, 'organization', 'organization_id', ids))];
  },
};

const updateTeamSchema = updateSchemaOf(newTeamSchema, { team_id: idField });
const updateUserSchema = updateSchemaOf(newUserSchema, { user_id: idField });
const updateOrganizationSchema = updateSchemaOf(newOrganizationSchema, { organization_id: idField });

/** The fields given (not left out), with a new budget period when one is set: what an update sets. */
const given = (fields: Record<string, unknown>, nowMs: number) =>
  withBudgetPeriod(
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    nowMs,
  );

/** Makes the user's memberships exactly `teams`; returns them before and after, for the audit row. */
async function setTeamsOfUser(tx: Queryable, userId: string, teams: readonly string[]) {
  await requireTeams(tx, teams);
  const before = await teamIdsOfUser(tx, userId);
  for (const teamId of before) if (!teams.includes(teamId)) await removeTeamMember(tx, teamId, userId);
  for (const teamId of teams) if (!before.includes(teamId)) await addTeamMember(tx, teamId, userId);
  return { before: { teams: before }, after: { teams: [...teams] } };
}

/**
 * Update and delete for teams, users and organizations (admin; CONTRACT 6.6). An update sets only the
 * fields given; a delete takes a list, all or none (404 naming unknown ids, 409 naming the keys still
 * on a team or user). Each change is audited and reaches every process's caches within a poll.
 */
export function registerOwnerLifecycleRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/team/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/team/update');
    const { team_id, ...fields } = parseBody(updateTeamSchema, request.body, '/team/update body');
    if (fields.organization_id && !(await getOrganization(ctx.db, fields.organization_id))) {
      throw new ProxyError(
        400,
        'organization_not_found',
        `\`organization_id\`: no organization \`${fields.organization_id}\`.`,
      );
    }
    const team = await updateOwner(ctx, TEAM, actor, team_id, given(fields, ctx.now()));
    ctx.teams.invalidate(team_id);
    return team;
  });

  app.post('/team/delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/team/delete');
    const { team_ids } = parseBody(idsSchema('team_ids'), request.body, '/team/delete body');
    const deleted = await deleteOwners(ctx, TEAM, actor, team_ids!);
    for (const teamId of deleted) ctx.teams.invalidate(teamId);
    return { deleted_teams: deleted };
  });

  app.post('/user/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/user/update');
    const { user_id, teams, ...fields } = parseBody(updateUserSchema, request.body, '/user/update body');
    const wanted = teams && [...new Set(teams)].sort();
    const user = await updateOwner(
      ctx,
      USER,
      actor,
      user_id,
      given(fields, ctx.now()),
      wanted && ((tx) => setTeamsOfUser(tx, user_id, wanted)),
    );
    ctx.authChanged();
    return userView(user, wanted ?? (await teamIdsOfUser(ctx.db, user_id)));
  });

  app.post('/user/delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/user/delete');
    const { user_ids } = parseBody(idsSchema('user_ids'), request.body, '/user/delete body');
    const deleted = await deleteOwners(ctx, USER, actor, user_ids!);
    ctx.authChanged();
    return { deleted_users: deleted };
  });

  app.post('/organization/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/organization/update');
    const { organization_id, ...fields } = parseBody(
      updateOrganizationSchema,
      request.body,
      '/organization/update body',
    );
    const organization = await updateOwner(
      ctx,
      ORGANIZATION,
      actor,
      organization_id,
      given(fields, ctx.now()),
    );
    ctx.authChanged();
    return { ...organization, teams: await teamIdsOfOrganization(ctx.db, organization_id) };
  });

  app.post('/organization/delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/organization/delete');
    const { organization_ids } = parseBody(
      idsSchema('organization_ids'),
      request.body,
      '/organization/delete body',
    );
    const deleted = await deleteOwners(ctx, ORGANIZATION, actor, organization_ids!);
    ctx.authChanged();
    return { deleted_organizations: deleted };
  });
}
