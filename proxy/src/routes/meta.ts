import type { FastifyInstance } from 'fastify';
import type { ProxyContext } from '../proxy-context.js';

/** `GET /` (what this is) and `GET /routes` (every route the proxy serves); neither needs auth. */
export function registerMetaRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  const routes: Array<{ path: string; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const known = routes.find((r) => r.path === route.url);
    if (known) known.methods.push(...methods.filter((m) => !known.methods.includes(m)));
    else routes.push({ path: route.url, methods });
  });

  app.get('/', async () => ({
    name: 'svc-router',
    version: ctx.version,
    docs: 'https://www.npmjs.com/package/@svc/router',
    health: '/health',
    routes: '/routes',
  }));

  app.get('/routes', async () => ({ routes: [...routes].sort((a, b) => a.path.localeCompare(b.path)) }));
}
