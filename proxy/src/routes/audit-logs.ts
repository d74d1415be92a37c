import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashKey, isKeyHash } from '../auth/virtual-key.js';
import { listAudit } from '../db/audit-repo.js';
import { parseBody } from '../http/parse-body.js';
import type { ProxyContext } from '../proxy-context.js';
import { KEY_PREFIX_LENGTH, keyRef } from './audit-trail.js';
import { authenticateAdmin, exactText } from './management-fields.js';
import { timeField } from './storable-fields.js';

/** The object types audit rows name. */
export const AUDIT_OBJECT_TYPES = [
  'key',
  'team',
  'user',
  'organization',
  'jwt_key_mapping',
  'router_settings',
] as const;

/** A key's audit id from its prefix (as given), its hash, or the key itself. */
function keyRefOf(value: string): string {
  if (value.length <= KEY_PREFIX_LENGTH) return value;
  return keyRef(isKeyHash(value) ? value : hashKey(value));
}

const query = z.strictObject({
  object_type: z.enum(AUDIT_OBJECT_TYPES).optional(),
  object_id: exactText(256).optional(),
  action: exactText(64).optional(),
  since: timeField.optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(50),
});

/**
 * `GET /audit/logs` (admin): who changed what and when, newest first, filtered by `object_type`,
 * `object_id`, `action` and `since`, paged (`page`, `size`). A key is named by its hash prefix; given a
 * key or its hash as `object_id`, the route looks for its prefix.
 */
export function registerAuditRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.get('/audit/logs', async (request) => {
    await authenticateAdmin(ctx, request, '/audit/logs');
    const { page, size, object_id, ...filter } = parseBody(query, request.query, '/audit/logs query');
    const objectId =
      object_id !== undefined && filter.object_type === 'key' ? keyRefOf(object_id) : object_id;
    const { rows, total } = await listAudit(ctx.db, { ...filter, object_id: objectId }, page, size);
    const data = rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
    return { data, total, page, size };
  });
}
