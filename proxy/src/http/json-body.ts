import type { FastifyInstance } from 'fastify';
import { findJsonSyntaxError } from './json-syntax-error.js';
import { ProxyError } from './proxy-error.js';

/** Fastify's code for a body that did not parse (its message says only that). */
const INVALID_JSON = 'FST_ERR_CTP_INVALID_JSON_BODY';

/**
 * Why `body` is not JSON, for the sender: the line and column of the first error and what is wrong
 * there (never the body's text, which may hold a secret). A body that is valid JSON yet refused carries
 * a `__proto__` or `constructor.prototype` key.
 */
export function invalidJsonMessage(body: string): string {
  const found = findJsonSyntaxError(body);
  if (!found) {
    return 'The request body is not accepted: `__proto__` and `constructor.prototype` keys are refused.';
  }
  const { problem, line, column, offset } = found;
  return `The request body is not valid JSON: ${problem} at line ${line}, column ${column} (character ${offset + 1}).`;
}

/**
 * Parses `application/json` bodies with fastify's own parser (its limits and prototype-poisoning
 * checks), and answers a malformed one with 400 `invalid_json` saying where it breaks.
 */
export function parseJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string': the body is always text here
    const text = String(body);
    // a DELETE that says it sends JSON and sends nothing (Python's requests sets `Content-Length: 0`)
    if (text === '' && (request.method === 'DELETE' || request.method === 'OPTIONS'))
      return done(null, undefined);
    parse(request, text, (error, value) => {
      if ((error as { code?: string } | null)?.code !== INVALID_JSON) return done(error, value);
      done(new ProxyError(400, 'invalid_json', invalidJsonMessage(text)), undefined);
    });
  });
}
