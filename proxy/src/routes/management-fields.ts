import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../auth/authenticate.js';
import { DURATION_FORMAT, DURATION_PATTERN, durationMs } from '../auth/duration.js';
import { MAX_OWNER_ID_LENGTH } from '../db/owner-id.js';
import type { ProxyContext } from '../proxy-context.js';
import { actorOf } from './audit-trail.js';
import { int4, storableJsonObject, storableText } from './storable-fields.js';

// Every field of a management request is one of these, so what the database cannot store is refused
// with a 400 naming the field (storable-fields.ts), in one place for every route.

/** An id or alias in a management body: trimmed, 1 to 256 characters (`MAX_OWNER_ID_LENGTH`). */
export const idField = storableText.trim().min(1).max(MAX_OWNER_ID_LENGTH);

/** A value matched exactly as given (a JWT claim, a query filter): not trimmed, at least one character. */
export const exactText = (max: number) => storableText.min(1).max(max);

/** Free text (a description), up to `max` characters. */
export const freeText = (max: number) => storableText.max(max);

/** A budget in dollars. */
export const budgetField = z.number().nonnegative();

/** A per-minute limit (`rpm_limit`, `tpm_limit`): an `integer` column. */
export const limitField = int4(1);

/** Free-form data kept with a record. */
export const metadataField = storableJsonObject;

/** Model names a record may call; empty means every model. */
export const modelsField = z.array(storableText.min(1));

/** The longest `duration` of a key, in days: its expiry must be a time the database stores. */
export const MAX_DURATION_DAYS = 36_500;

/** A `duration` (`30s`, `15m`, `12h`, `30d`, `1mo`) of at most 100 years; `what` names it in errors. */
function boundedDuration(what: string) {
  return (
    z
      .string()
      .regex(DURATION_PATTERN, `expected ${DURATION_FORMAT}`)
      // checked even when the pattern failed: only a value that matches it has a length to check
      .refine(
        (value) => !DURATION_PATTERN.test(value) || durationMs(value) <= MAX_DURATION_DAYS * 86_400_000,
        `at most ${MAX_DURATION_DAYS}d (100 years); ${what}`,
      )
  );
}

/** How long a key lives: `30s`, `15m`, `12h`, `30d` or `1mo`, at most 100 years. */
export const durationField = boundedDuration('leave it out for a key that never expires');

/** How often a budget starts again (`budget_duration`): at least a second, at most 100 years. */
export const budgetDurationField = boundedDuration('leave it out for a budget that never resets').refine(
  (value) => !DURATION_PATTERN.test(value) || durationMs(value) > 0,
  'at least `1s`',
);

/** A readable id for a record created without one: `team_`, `user_`, `org_`... and 16 hex digits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/**
 * Authenticates the request and throws 403 unless it is an admin's; `route` names it in the error.
 * Resolves with who the admin is, as audit rows name them (never a secret).
 */
export async function authenticateAdmin(
  ctx: ProxyContext,
  request: FastifyRequest,
  route: string,
): Promise<string> {
  const caller = await ctx.authenticate(request);
  requireAdmin(caller, route);
  return actorOf(caller);
}

/**
 * The body of an update route from its create route's schema: every field optional and without its
 * default (a field left out keeps its value; null, where the field takes null, clears it), plus the
 * `id` fields that say what to update. A field added to the create route is accepted here too.
 */
export function updateSchemaOf<S extends z.ZodRawShape, I extends z.ZodRawShape>(
  create: z.ZodObject<S>,
  id: I,
) {
  const fields = Object.fromEntries(
    Object.entries(create.shape)
      .filter(([name]) => !(name in id))
      .map(([name, field]) => [name, z.optional(field instanceof z.ZodDefault ? field.unwrap() : field)]),
  ) as { [K in Exclude<keyof S, keyof I>]: z.ZodOptional<z.ZodType<z.output<S[K]>>> };
  return z.strictObject({ ...fields, ...id });
}
