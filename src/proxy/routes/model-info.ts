import type { FastifyInstance } from 'fastify';
import type { Caller } from '../auth/caller.js';
import type { ProxyContext } from '../proxy-context.js';

/** Whether the caller may see (and call) a model group. */
function visibleTo(caller: Caller): (group: string) => boolean {
  if (caller.kind !== 'key' || caller.key.models.length === 0) return () => true;
  const allowed = new Set(caller.key.models);
  return (group) => allowed.has(group);
}

/** `GET /v1/models` (OpenAI's list) and `GET /model_group/info` (CONTRACT 5.3), each limited to the key's models. */
export function registerModelInfoRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  const models = async (request: { headers: Record<string, string | string[] | undefined> }) => {
    const visible = visibleTo(await ctx.authenticate(request.headers));
    const created = Math.floor(ctx.now() / 1000);
    return {
      object: 'list',
      data: ctx.router
        .getModelGroupInfo()
        .filter((info) => visible(info.model_group))
        .map((info) => ({ id: info.model_group, object: 'model', created, owned_by: 'svc-router' })),
    };
  };
  app.get('/v1/models', models);
  app.get('/models', models);

  app.get('/model_group/info', async (request) => {
    const visible = visibleTo(await ctx.authenticate(request.headers));
    return { data: ctx.router.getModelGroupInfo().filter((info) => visible(info.model_group)) };
  });
}
