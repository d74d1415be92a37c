import { redactSecrets } from '@svc/router';
import type { FastifyInstance } from 'fastify';
import { isUnexpected } from '../http/proxy-error.js';

/** Stack frames kept in the log line: enough to find the throwing code. */
const STACK_FRAMES = 8;

/**
 * An error as one log line shows it: its class, code (a Postgres SQLSTATE, a Node code), message and
 * where it was thrown, with anything shaped like a credential removed. Driver fields that may quote a
 * stored value (`detail`, `where`) are left out.
 */
export function loggableCause(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return { message: redactSecrets(String(error)) };
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? '')
    .split('\n')
    .slice(1, 1 + STACK_FRAMES)
    .map((frame) => frame.trim());
  return {
    type: error.name,
    ...(typeof code === 'string' && { code }),
    message: redactSecrets(error.message),
    stack: frames.join(' | '),
  };
}

/**
 * Writes one error line for every request answered with a 500 `internal_error`: the caller is told
 * nothing of the cause, so the log must (redacted, with the call id fastify adds).
 */
export function logUnexpectedErrors(app: FastifyInstance): void {
  app.addHook('onError', async (request, _reply, error) => {
    if (!isUnexpected(error)) return;
    request.log.error(
      { error: loggableCause(error), route: request.routeOptions.url ?? 'unmatched' },
      'answered 500 internal_error: the request failed unexpectedly',
    );
  });
}
