import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../auth/authenticate.js';
import type { ProxyContext } from '../proxy-context.js';

/** An id or alias in a management body: trimmed, 1 to 256 characters. */
export const idField = z.string().trim().min(1).max(256);

/** A budget in dollars. */
export const budgetField = z.number().nonnegative();

/** A per-minute limit (`rpm_limit`, `tpm_limit`). */
export const limitField = z.number().int().positive();

/** Free-form data kept with a record. */
export const metadataField = z.record(z.string(), z.unknown());

/** Model names a record may call; empty means every model. */
export const modelsField = z.array(z.string().min(1));

/** A readable id for a record created without one: `team_`, `user_`, `org_`... and 16 hex digits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** Authenticates the request and throws 403 unless it is an admin's; `route` names it in the error. */
export async function authenticateAdmin(
  ctx: ProxyContext,
  request: FastifyRequest,
  route: string,
): Promise<void> {
  requireAdmin(await ctx.authenticate(request), route);
}
