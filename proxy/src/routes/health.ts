import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/authenticate.js';
import type { ProxyContext } from '../proxy-context.js';
import { deploymentHealthRows } from './deployment-health-rows.js';

const READINESS_TIMEOUT_MS = 2_000;

/**
 * `GET /deployment/health` (admin): each deployment's live state, as the admin page shows it.
 * `GET /health`: the process is up and how many deployments are usable, without calling any upstream
 * and without naming one (it needs no auth). `GET /health/readiness`: the database (and Redis, when
 * configured) answer; 503 naming the one that does not.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.get('/health', async () => {
    const deployments = ctx.router.getDeployments();
    const healthy = deployments.filter((d) => d.state !== 'cooling').length;
    return {
      status: 'ok',
      healthy_deployments: healthy,
      unhealthy_deployments: deployments.length - healthy,
    };
  });

  // admin only: it names every deployment and its provider
  app.get('/deployment/health', async (request) => {
    requireAdmin(await ctx.authenticate(request), '/deployment/health');
    const data = deploymentHealthRows(ctx.router.getDeployments(), ctx.router.metrics().deployments);
    return { data };
  });

  app.get('/health/readiness', async (_request, reply) => {
    const results = await Promise.all(
      ctx.readiness.map(async ({ name, check }) => {
        try {
          await withTimeout(
            check(),
            READINESS_TIMEOUT_MS,
            `${name} did not answer in ${READINESS_TIMEOUT_MS} ms`,
          );
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, `unavailable: ${(error as Error).message}`] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    const spend = ctx.spendStats();
    reply.code(ready ? 200 : 503);
    return {
      status: ready ? 'ok' : 'unavailable',
      ...Object.fromEntries(results),
      database_engine: ctx.db.engine,
      spend_logs_pending: spend.pending,
      version: ctx.version,
    };
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
