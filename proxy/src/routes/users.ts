import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { insertAudit } from '../db/audit-repo.js';
import type { Queryable } from '../db/database.js';
import { addTeamMember, teamIdsOfUser } from '../db/memberships-repo.js';
import { getTeam } from '../db/teams-repo.js';
import { getUser, insertUser, type UserRow } from '../db/users-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf } from './audit-trail.js';
import { firstBudgetResetAt, inRunningPeriod } from './budget-fields.js';
import {
  authenticateAdmin,
  budgetDurationField,
  budgetField,
  idField,
  metadataField,
  newId,
} from './management-fields.js';

/** The user roles of spec 2.4. */
export const USER_ROLES = ['proxy_admin', 'internal_user', 'internal_user_view_only'] as const;

/** The body of the create route; its update route takes the same fields. */
export const newUserSchema = z.strictObject({
  user_id: idField.optional(),
  user_role: z.enum(USER_ROLES).default('internal_user'),
  user_email: z.email().nullish(),
  max_budget: budgetField.nullish(),
  budget_duration: budgetDurationField.nullish(),
  teams: z.array(idField).default([]),
  metadata: metadataField.default({}),
});

const userIdSchema = z.strictObject({ user_id: idField });

/** A user as `/user/new` and `/user/info` answer: the stored fields and the ids of its teams. */
export function userView(user: UserRow, teams: readonly string[]) {
  return {
    user_id: user.user_id,
    user_role: user.user_role,
    user_email: user.user_email,
    teams,
    spend: user.spend,
    max_budget: user.max_budget,
    budget_duration: user.budget_duration,
    budget_reset_at: user.budget_reset_at,
    metadata: user.metadata,
    created_at: user.created_at,
  };
}

/** Throws 400 naming every team id that does not exist. */
export async function requireTeams(db: Queryable, teamIds: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const teamId of teamIds) if (!(await getTeam(db, teamId))) missing.push(teamId);
  if (missing.length > 0) {
    throw new ProxyError(
      400,
      'team_not_found',
      `\`teams\`: no team ${missing.map((id) => `\`${id}\``).join(', ')}.`,
    );
  }
}

/** Users (master key): create one (with its team memberships, all or nothing), read one. */
export function registerUserRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/user/new', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/user/new');
    const body = parseBody(newUserSchema, request.body, '/user/new body');
    const teams = [...new Set(body.teams)].sort();
    const created = await ctx.db.transaction(async (tx) => {
      await requireTeams(tx, teams);
      const user = await insertUser(tx, {
        ...body,
        user_id: body.user_id ?? newId('user'),
        budget_reset_at: firstBudgetResetAt(ctx.now(), body.budget_duration),
      });
      for (const teamId of teams) await addTeamMember(tx, teamId, user.user_id);
      const changes = changesOf('user_id', undefined, { ...user, teams });
      await insertAudit(tx, [auditRow(actor, 'create', 'user', user.user_id, changes)]);
      return userView(user, teams);
    });
    ctx.authChanged();
    return created;
  });

  app.get('/user/info', async (request) => {
    await authenticateAdmin(ctx, request, '/user/info');
    const { user_id } = parseBody(userIdSchema, request.query, '/user/info query');
    const user = await getUser(ctx.db, user_id);
    if (!user) throw new ProxyError(404, 'user_not_found', `No user \`${user_id}\`.`);
    return userView(await inRunningPeriod(ctx, 'user', user_id, user), await teamIdsOfUser(ctx.db, user_id));
  });
}
