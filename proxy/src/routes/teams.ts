import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { insertAudit } from '../db/audit-repo.js';
import { addTeamMember, removeTeamMember, userIdsOfTeam } from '../db/memberships-repo.js';
import { getOrganization } from '../db/organizations-repo.js';
import { getTeam, insertTeam, listTeamsWithMembers, setTeamBlocked, type TeamRow } from '../db/teams-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf } from './audit-trail.js';
import { firstBudgetResetAt, inRunningPeriod, periodAsOf } from './budget-fields.js';
import {
  authenticateAdmin,
  budgetDurationField,
  budgetField,
  idField,
  limitField,
  metadataField,
  modelsField,
  newId,
} from './management-fields.js';

/** The body of the create route; its update route takes the same fields. */
export const newTeamSchema = z.strictObject({
  team_id: idField.optional(),
  team_alias: idField.nullish(),
  models: modelsField.default([]),
  organization_id: idField.nullish(),
  max_budget: budgetField.nullish(),
  budget_duration: budgetDurationField.nullish(),
  soft_budget: budgetField.nullish(),
  rpm_limit: limitField.nullish(),
  tpm_limit: limitField.nullish(),
  metadata: metadataField.default({}),
});

const teamIdSchema = z.strictObject({ team_id: idField });
const memberSchema = z.strictObject({ team_id: idField, user_id: idField });

/** The team, or 404. */
async function existingTeam(ctx: ProxyContext, teamId: string): Promise<TeamRow> {
  const team = await getTeam(ctx.db, teamId);
  if (!team) throw new ProxyError(404, 'team_not_found', `No team \`${teamId}\`.`);
  return team;
}

/**
 * Teams (master key): create, list, read, block and unblock, add and remove members; each write is
 * audited. Blocking takes effect at once in this process (its team cache entry is dropped) and in the
 * others on their next poll of the shared change count (~0.5 s).
 */
export function registerTeamRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/team/new', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/team/new');
    const body = parseBody(newTeamSchema, request.body, '/team/new body');
    if (body.organization_id && !(await getOrganization(ctx.db, body.organization_id))) {
      throw new ProxyError(
        400,
        'organization_not_found',
        `\`organization_id\`: no organization \`${body.organization_id}\`.`,
      );
    }
    const team = await ctx.db.transaction(async (tx) => {
      const inserted = await insertTeam(tx, {
        ...body,
        team_id: body.team_id ?? newId('team'),
        budget_reset_at: firstBudgetResetAt(ctx.now(), body.budget_duration),
      });
      const changes = changesOf('team_id', undefined, inserted);
      await insertAudit(tx, [auditRow(actor, 'create', 'team', inserted.team_id, changes)]);
      return inserted;
    });
    ctx.teams.invalidate(team.team_id);
    return team;
  });

  app.get('/team/list', async (request) => {
    await authenticateAdmin(ctx, request, '/team/list');
    const now = ctx.now();
    return { data: (await listTeamsWithMembers(ctx.db)).map((team) => periodAsOf(team, now)) };
  });

  app.get('/team/info', async (request) => {
    await authenticateAdmin(ctx, request, '/team/info');
    const { team_id } = parseBody(teamIdSchema, request.query, '/team/info query');
    const team = await inRunningPeriod(ctx, 'team', team_id, await existingTeam(ctx, team_id));
    return { team_id, team_info: team, members: await userIdsOfTeam(ctx.db, team_id), spend: team.spend };
  });

  for (const [route, blocked] of [
    ['/team/block', true],
    ['/team/unblock', false],
  ] as const) {
    app.post(route, async (request) => {
      const actor = await authenticateAdmin(ctx, request, route);
      const { team_id } = parseBody(teamIdSchema, request.body, `${route} body`);
      const team = await ctx.db.transaction(async (tx) => {
        const before = await getTeam(tx, team_id);
        const after = await setTeamBlocked(tx, team_id, blocked);
        const action = blocked ? 'block' : 'unblock';
        if (after)
          await insertAudit(tx, [
            auditRow(actor, action, 'team', team_id, changesOf('team_id', before, after)),
          ]);
        return after;
      });
      ctx.teams.invalidate(team_id);
      if (!team) throw new ProxyError(404, 'team_not_found', `No team \`${team_id}\`.`);
      return team;
    });
  }

  app.post('/team/member_add', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/team/member_add');
    const { team_id, user_id } = parseBody(memberSchema, request.body, '/team/member_add body');
    await existingTeam(ctx, team_id);
    await ctx.db.transaction(async (tx) => {
      await addTeamMember(tx, team_id, user_id);
      await insertAudit(tx, [
        auditRow(actor, 'member_add', 'team', team_id, { member: { before: null, after: user_id } }),
      ]);
    });
    ctx.authChanged();
    return { team_id, members: await userIdsOfTeam(ctx.db, team_id) };
  });

  app.post('/team/member_delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/team/member_delete');
    const { team_id, user_id } = parseBody(memberSchema, request.body, '/team/member_delete body');
    await existingTeam(ctx, team_id);
    const removed = await ctx.db.transaction(async (tx) => {
      const done = await removeTeamMember(tx, team_id, user_id);
      const change = { member: { before: user_id, after: null } };
      if (done) await insertAudit(tx, [auditRow(actor, 'member_delete', 'team', team_id, change)]);
      return done;
    });
    ctx.authChanged();
    if (!removed) {
      throw new ProxyError(404, 'member_not_found', `\`${user_id}\` is not a member of team \`${team_id}\`.`);
    }
    return { team_id, members: await userIdsOfTeam(ctx.db, team_id) };
  });
}
