import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { authenticateFirst } from './http/authenticate-first.js';
import { trackCalls } from './http/call-state.js';
import { parseJsonBodies } from './http/json-body.js';
import { lingerOnEarlyAnswers } from './http/lingering-close.js';
import { errorReply, fixedBody } from './http/proxy-error.js';
import { routeNotFound } from './http/route-not-found.js';
import { AccessLog } from './observability/access-log.js';
import { observeRequests } from './observability/http-hooks.js';
import { lazyChildLogger } from './observability/lazy-child-logger.js';
import { accessLogger } from './observability/proxy-logger.js';
import { logUnexpectedErrors } from './observability/unexpected-errors.js';
import { registerPassThroughRoutes } from './passthrough/route.js';
import type { ProxyContext } from './proxy-context.js';
import { registerAuditRoutes } from './routes/audit-logs.js';
import { registerConfigRoutes } from './routes/config-update.js';
import { registerCustomerRoutes } from './routes/customers.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerJwtKeyMappingRoutes } from './routes/jwt-key-mappings.js';
import { registerKeyLifecycleRoutes } from './routes/key-lifecycle.js';
import { registerKeyRoutes } from './routes/keys.js';
import { registerMessagesRoute } from './routes/messages.js';
import { registerMetaRoutes } from './routes/meta.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerModelCallRoutes } from './routes/model-calls.js';
import { registerModelInfoRoutes } from './routes/model-info.js';
import { registerOrganizationRoutes } from './routes/organizations.js';
import { registerOwnerLifecycleRoutes } from './routes/owner-lifecycle.js';
import { registerResponsesRoutes } from './routes/responses.js';
import { registerSpendRoutes } from './routes/spend.js';
import { registerTeamRoutes } from './routes/teams.js';
import { registerTranscriptionRoutes } from './routes/transcriptions.js';
import { registerUiRoutes } from './routes/ui.js';
import { registerUserRoutes } from './routes/users.js';

/**
 * The proxy's HTTP app over a built context: every route, the call id and overhead headers, and one
 * error shape. Not listening yet: `startProxy` listens; tests use `app.inject()`.
 */
export function buildProxyApp(ctx: ProxyContext): FastifyInstance {
  const obs = ctx.observability;
  const app = Fastify({
    bodyLimit: ctx.bodyLimit,
    // a request that arrives while the proxy drains gets 503 and `connection: close`
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    keepAliveTimeout: 65_000,
    // logs (JSON lines, redacted) and request ids that are call ids, when observability is on
    ...(obs && {
      loggerInstance: obs.log as FastifyBaseLogger,
      genReqId: (raw: IncomingMessage) => obs.tracing.callId(raw),
      logController: new AccessLog({ requestIdLogLabel: 'call_id' }, accessLogger(obs.log)),
      childLoggerFactory: lazyChildLogger,
    }),
  });
  parseJsonBodies(app);
  lingerOnEarlyAnswers(app);
  trackCalls(app, ctx.now, obs?.tracing);
  authenticateFirst(app, ctx.authenticate);
  if (obs) observeRequests(app, obs);
  logUnexpectedErrors(app);
  app.setErrorHandler((error, _request, reply) => {
    const { status, body, headers } = errorReply(error);
    return reply
      .code(status)
      .headers(headers)
      .send(fixedBody(error) ?? body);
  });
  app.setNotFoundHandler((request, reply) => {
    const { status, body } = errorReply(routeNotFound(request));
    return reply.code(status).send(body);
  });
  registerMetaRoutes(app, ctx);
  registerHealthRoutes(app, ctx);
  registerModelInfoRoutes(app, ctx);
  registerModelCallRoutes(app, ctx);
  registerTranscriptionRoutes(app, ctx);
  registerMessagesRoute(app, ctx);
  registerResponsesRoutes(app, ctx);
  registerKeyRoutes(app, ctx);
  registerSpendRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerOrganizationRoutes(app, ctx);
  registerCustomerRoutes(app, ctx);
  registerKeyLifecycleRoutes(app, ctx);
  registerOwnerLifecycleRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerJwtKeyMappingRoutes(app, ctx);
  registerMetricsRoute(app, ctx);
  registerConfigRoutes(app, ctx);
  registerUiRoutes(app);
  registerPassThroughRoutes(app, ctx);
  return app;
}
