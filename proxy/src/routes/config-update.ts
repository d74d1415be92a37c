import { ConfigError } from '@svc/router';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { settingsView } from '../config/live-settings.js';
import { insertAudit } from '../db/audit-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow } from './audit-trail.js';
import { authenticateAdmin } from './management-fields.js';
import { storableJsonObject } from './storable-fields.js';

const updateSchema = z.strictObject({
  router_settings: storableJsonObject.refine((settings) => Object.keys(settings).length > 0, {
    error: 'give at least one setting',
  }),
});

/**
 * `POST /config/update` (master key, CONTRACT 5.6): `{ router_settings: {...} }` is validated, stored
 * and applied here at once, and in every other process of the deployment within a poll (~0.5 s).
 * Answers `{ router_settings, version }`: every setting in force and the stored version.
 */
export function registerConfigRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/config/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/config/update');
    const { router_settings } = parseBody(updateSchema, request.body, '/config/update body');
    const { settings } = ctx;
    if (!settings) throw new ProxyError(501, 'not_supported', 'This proxy has no settings store.');
    const before = settingsView(ctx.router.settings);
    let updated: Awaited<ReturnType<typeof settings.update>>;
    try {
      updated = await settings.update(router_settings);
    } catch (error) {
      if (error instanceof ConfigError) throw new ProxyError(400, 'invalid_router_settings', error.message);
      throw error;
    }
    // as the answer shows them: credentials masked
    const changes = Object.fromEntries(
      Object.keys(router_settings).map((name) => [
        name,
        { before: before[name] ?? null, after: updated.router_settings[name] ?? null },
      ]),
    );
    await insertAudit(ctx.db, [auditRow(actor, 'update', 'router_settings', 'router_settings', changes)]);
    return updated;
  });
}
