import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { insertAudit } from '../db/audit-repo.js';
import { getOrganization, insertOrganization } from '../db/organizations-repo.js';
import { teamIdsOfOrganization } from '../db/teams-repo.js';
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
  modelsField,
  newId,
} from './management-fields.js';

/** The body of the create route; its update route takes the same fields. */
export const newOrganizationSchema = z.strictObject({
  organization_id: idField.optional(),
  organization_alias: idField,
  models: modelsField.default([]),
  max_budget: budgetField.nullish(),
  budget_duration: budgetDurationField.nullish(),
  metadata: metadataField.default({}),
});

const organizationIdSchema = z.strictObject({ organization_id: idField });

/** Organizations (master key): create one, read one with the ids of its teams. */
export function registerOrganizationRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/organization/new', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/organization/new');
    const body = parseBody(newOrganizationSchema, request.body, '/organization/new body');
    const organization = await ctx.db.transaction(async (tx) => {
      const inserted = await insertOrganization(tx, {
        ...body,
        organization_id: body.organization_id ?? newId('org'),
        budget_reset_at: firstBudgetResetAt(ctx.now(), body.budget_duration),
      });
      const changes = changesOf('organization_id', undefined, inserted);
      await insertAudit(tx, [auditRow(actor, 'create', 'organization', inserted.organization_id, changes)]);
      return inserted;
    });
    ctx.authChanged();
    return organization;
  });

  app.get('/organization/info', async (request) => {
    await authenticateAdmin(ctx, request, '/organization/info');
    const { organization_id } = parseBody(organizationIdSchema, request.query, '/organization/info query');
    const organization = await getOrganization(ctx.db, organization_id);
    if (!organization) {
      throw new ProxyError(404, 'organization_not_found', `No organization \`${organization_id}\`.`);
    }
    const current = await inRunningPeriod(ctx, 'organization', organization_id, organization);
    return { ...current, teams: await teamIdsOfOrganization(ctx.db, organization_id) };
  });
}
