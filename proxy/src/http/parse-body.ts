import { schemaKeysAt, zodProblems } from '@svc/router/config';
import type { z } from 'zod';
import { ProxyError } from './proxy-error.js';

/**
 * Validates a management request's body (or query) against its schema; throws one 400 naming every
 * bad field, with the closest valid name for an unknown one.
 */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = zodProblems(parsed.error, input, {
    prefix: '',
    knownKeys: (path) => schemaKeysAt(schema, path, []),
    noun: 'field',
  });
  throw new ProxyError(400, 'invalid_request', `Invalid ${what}: ${problems.join('; ')}`);
}
