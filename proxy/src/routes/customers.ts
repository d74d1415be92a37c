import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type CustomerRow, getCustomer, insertCustomer, setCustomersBlocked } from '../db/customers-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { firstBudgetResetAt, inRunningPeriod } from './budget-fields.js';
import { authenticateAdmin, budgetDurationField, budgetField, idField } from './management-fields.js';

const newCustomerSchema = z.strictObject({
  user_id: idField,
  max_budget: budgetField.nullish(),
  budget_duration: budgetDurationField.nullish(),
});

const infoQuery = z.strictObject({ end_user_id: idField });

const blockSchema = z.strictObject({ user_ids: z.array(idField).min(1).max(1000) });

/** A customer as the routes answer. */
function customerView(customer: CustomerRow) {
  return {
    user_id: customer.user_id,
    max_budget: customer.max_budget,
    spend: customer.spend,
    budget_duration: customer.budget_duration,
    budget_reset_at: customer.budget_reset_at,
    blocked: customer.blocked,
    created_at: customer.created_at,
  };
}

/**
 * Customers (master key; CONTRACT 6.6): the end users a request's `user` field names, each with its
 * own budget, and a block (403 `customer_blocked`) that takes effect in every process within a poll.
 */
export function registerCustomerRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/customer/new', async (request) => {
    await authenticateAdmin(ctx, request, '/customer/new');
    const body = parseBody(newCustomerSchema, request.body, '/customer/new body');
    const customer = await insertCustomer(ctx.db, {
      ...body,
      budget_reset_at: firstBudgetResetAt(ctx.now(), body.budget_duration),
    });
    ctx.owners.customers.invalidate(customer.user_id);
    return customerView(customer);
  });

  app.get('/customer/info', async (request) => {
    await authenticateAdmin(ctx, request, '/customer/info');
    const { end_user_id } = parseBody(infoQuery, request.query, '/customer/info query');
    const customer = await getCustomer(ctx.db, end_user_id);
    if (!customer) throw new ProxyError(404, 'customer_not_found', `No customer \`${end_user_id}\`.`);
    return customerView(await inRunningPeriod(ctx, 'customer', end_user_id, customer));
  });

  app.post('/customer/block', async (request) => {
    await authenticateAdmin(ctx, request, '/customer/block');
    const { user_ids } = parseBody(blockSchema, request.body, '/customer/block body');
    const blocked = await setCustomersBlocked(ctx.db, [...new Set(user_ids)], true);
    for (const id of blocked) ctx.owners.customers.invalidate(id);
    return { blocked_user_ids: blocked };
  });

  app.post('/customer/unblock', async (request) => {
    await authenticateAdmin(ctx, request, '/customer/unblock');
    const { user_ids } = parseBody(blockSchema, request.body, '/customer/unblock body');
    const unblocked = await setCustomersBlocked(ctx.db, [...new Set(user_ids)], false);
    for (const id of unblocked) ctx.owners.customers.invalidate(id);
    if (unblocked.length === 0)
      throw new ProxyError(404, 'customer_not_found', 'None of these customers exists.');
    return { unblocked_user_ids: unblocked };
  });
}
