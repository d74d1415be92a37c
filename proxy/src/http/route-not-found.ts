import type { FastifyRequest } from 'fastify';
import { ProxyError } from './proxy-error.js';

/** The 404 of a request no route serves. */
export function routeNotFound(request: FastifyRequest): ProxyError {
  return new ProxyError(
    404,
    'route_not_found',
    `No route ${request.method} ${request.url.split('?')[0]}; see GET /routes.`,
  );
}
