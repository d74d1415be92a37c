import type { FastifyInstance, FastifyRequest } from 'fastify';
import { modelAllowed as visibleTo } from '../auth/model-access.js';
import type { ProxyContext } from '../proxy-context.js';

/**
 * `GET /v1/models` (OpenAI's list) and `GET /model_group/info` (CONTRACT 5.3), each limited to the groups
 * the caller may call: the key's and its team's model lists, or the token's allowed models (CONTRACT 6.3),
 * an access group in them listing every group it grants.
 */
export function registerModelInfoRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  const models = async (request: FastifyRequest) => {
    const visible = visibleTo(await ctx.authenticate(request), ctx.router.getAccessGroups());
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
    const visible = visibleTo(await ctx.authenticate(request), ctx.router.getAccessGroups());
    return { data: ctx.router.getModelGroupInfo().filter((info) => visible(info.model_group)) };
  });
}
