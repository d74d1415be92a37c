import type { FastifyInstance } from 'fastify';
import type { ProxyObservability } from '../proxy-context.js';

/**
 * Counts and times every answered request by its route pattern (`unmatched` for a 404 without a
 * route: a URL is never a label), and ends its server span.
 */
export function observeRequests(app: FastifyInstance, observability: ProxyObservability): void {
  const { metrics, tracing } = observability;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    metrics.observeHttp(route ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    tracing.end(request.raw, route, reply.statusCode);
    done();
  });
}
