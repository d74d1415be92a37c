import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticate } from '../auth/authenticate.js';
import { routeNotFound } from './route-not-found.js';

/** Whether a request sends a body the gateway would read (fastify reads none of a GET or a HEAD). */
function sendsBody(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const { headers } = request;
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}

/**
 * Authenticates every request that sends a body before the body is read: a caller without a valid
 * credential is answered 401 (or 403) at once, and never makes the gateway read, hold and parse up to
 * `max_request_body_mb` of JSON (about twenty times its size once parsed) or of a multipart upload.
 * A key's caller found here is the route's too (`authenticate` remembers it per request); a JWT is
 * only verified here, and its identity decided by the route with the model its body names (so that
 * `custom_validate` runs once). A body sent to no route is answered 404 unread.
 */
export function authenticateFirst(app: FastifyInstance, authenticate: Authenticate): void {
  // a callback hook: an async one costs a promise and a turn of jobs per request
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!sendsBody(request)) {
      done(null, payload);
      return;
    }
    // nothing would read it: answered before it is parsed, for anyone
    if (request.is404) {
      done(routeNotFound(request));
      return;
    }
    // a caller known at once (a warm key) goes on without a promise
    const pending = authenticate.beforeBody(request);
    if (pending === undefined) done(null, payload);
    else
      pending.then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
  });
}
