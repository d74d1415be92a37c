import type { FastifyInstance } from 'fastify';
import type { Authenticate } from '../auth/authenticate.js';

/** Whether a request says it sends a body (a length over 0, or a chunked one). */
const sendsBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * Authenticates every request that sends a body before the body is read: a caller without a valid
 * credential is answered 401 (or 403) at once, and never makes the gateway read, hold and parse up to
 * `max_request_body_mb` of JSON (about twenty times its size once parsed) or of a multipart upload.
 * The caller found is the route's too (`authenticate` remembers it per request), but for a JWT's,
 * which the route authenticates again with the model its body names.
 */
export function authenticateFirst(app: FastifyInstance, authenticate: Authenticate): void {
  // a callback hook: an async one costs a promise and a turn of jobs per request
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.is404 || !sendsBody(request.headers)) {
      done(null, payload);
      return;
    }
    authenticate(request).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
