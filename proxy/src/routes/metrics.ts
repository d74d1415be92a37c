import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/authenticate.js';
import type { ProxyContext } from '../proxy-context.js';

/**
 * `GET /metrics`: Prometheus text format (docs/observability.md lists every series). Needs the master
 * key (or an admin token) unless `general_settings.metrics_public` is true.
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: ProxyContext): void {
  const observability = ctx.observability;
  if (!observability) return;
  app.get('/metrics', async (request, reply) => {
    if (!observability.metricsPublic) requireAdmin(await ctx.authenticate(request), 'GET /metrics');
    const text = await observability.metrics.render();
    return reply.type(observability.metrics.contentType).send(text);
  });
}
