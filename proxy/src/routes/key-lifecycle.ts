import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { addDuration, durationMs } from '../auth/duration.js';
import { identityOf } from '../auth/key-identity.js';
import { generateVirtualKey, hashKey, isKeyHash } from '../auth/virtual-key.js';
import { insertAudit } from '../db/audit-repo.js';
import type { Queryable } from '../db/database.js';
import { asDuplicateError } from '../db/db-errors.js';
import { KEYS_TABLE, type KeyRecord, rehashKey } from '../db/keys-repo.js';
import { type ColumnValues, lockRow, updateColumns } from '../db/update-columns.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf, keyRef } from './audit-trail.js';
import { withBudgetPeriod } from './budget-fields.js';
import { generateSchema, keyInfo } from './keys.js';
import { authenticateAdmin, durationField, updateSchemaOf } from './management-fields.js';

/** `key`: the key itself or its hash, as `/key/list` shows it. */
const keyField = z.string().min(1);

const updateSchema = updateSchemaOf(generateSchema, { key: keyField });
const regenerateSchema = z.strictObject({ key: keyField, grace_period: durationField.default('0s') });
const keySchema = z.strictObject({ key: keyField });

const hashOf = (key: string) => (isKeyHash(key) ? key : hashKey(key));

function notFound(): ProxyError {
  return new ProxyError(404, 'key_not_found', '`key`: no such key.');
}

/**
 * Changes the key `key` names in one transaction with its audit row: `change` gets the key as it is
 * (locked) and returns the new key and the action. 404 when there is none; 409 for a taken alias.
 */
async function changeKey(
  ctx: ProxyContext,
  actor: string,
  key: string,
  change: (tx: Queryable, before: KeyRecord) => Promise<{ after: KeyRecord; action: string }>,
): Promise<KeyRecord> {
  const keyHash = hashOf(key);
  try {
    return await ctx.db.transaction(async (tx) => {
      const before = await lockRow<KeyRecord>(tx, KEYS_TABLE, keyHash);
      if (!before) throw notFound();
      const { after, action } = await change(tx, before);
      const changes = changesOf('key_hash', before, after);
      if (after.key_hash !== before.key_hash)
        changes.key_hash = { before: keyRef(before.key_hash), after: keyRef(after.key_hash) };
      await insertAudit(tx, [auditRow(actor, action, 'key', keyRef(after.key_hash), changes)]);
      return after;
    });
  } catch (error) {
    throw asDuplicateError(error, 'key') ?? error;
  }
}

/**
 * A key's life after `/key/generate` (admin; CONTRACT 6.6): update its fields, regenerate its secret
 * (the old one kept for a grace period), block and unblock it. Each change is audited, dropped from
 * this process's key cache at once and from every other process's on its next poll (~0.5 s).
 */
export function registerKeyLifecycleRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/key/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/key/update');
    const { key, duration, ...fields } = parseBody(updateSchema, request.body, '/key/update body');
    const values = withBudgetPeriod(
      Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      ctx.now(),
    );
    if (duration !== undefined)
      values.expires_at = duration === null ? null : new Date(addDuration(ctx.now(), duration));
    if (Object.keys(values).length === 0)
      throw new ProxyError(
        400,
        'invalid_request',
        'Invalid /key/update body: give at least one field to change.',
      );
    const after = await changeKey(ctx, actor, key, async (tx, before) => ({
      after: (await updateColumns<KeyRecord>(tx, KEYS_TABLE, before.key_hash, values as ColumnValues))!,
      action: 'update',
    }));
    ctx.keys.invalidate(after.key_hash);
    return { key_hash: after.key_hash, ...keyInfo(identityOf(after)) };
  });

  app.post('/key/regenerate', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/key/regenerate');
    const body = parseBody(regenerateSchema, request.body, '/key/regenerate body');
    const secret = generateVirtualKey();
    const graceMs = durationMs(body.grace_period);
    const after = await changeKey(ctx, actor, body.key, async (tx, before) => ({
      after: (await rehashKey(
        tx,
        before.key_hash,
        hashKey(secret),
        graceMs > 0 ? new Date(ctx.now() + graceMs) : null,
      ))!,
      action: 'regenerate',
    }));
    // the old hash's cached entry must go at once: it would otherwise keep answering for the old secret
    ctx.keys.invalidate(hashOf(body.key));
    ctx.keys.invalidate(after.key_hash);
    return { key: secret, key_hash: after.key_hash, ...keyInfo(identityOf(after)) };
  });

  for (const [route, blocked] of [
    ['/key/block', true],
    ['/key/unblock', false],
  ] as const) {
    app.post(route, async (request) => {
      const actor = await authenticateAdmin(ctx, request, route);
      const { key } = parseBody(keySchema, request.body, `${route} body`);
      const after = await changeKey(ctx, actor, key, async (tx, before) => ({
        after: (await updateColumns<KeyRecord>(tx, KEYS_TABLE, before.key_hash, { blocked }))!,
        action: blocked ? 'block' : 'unblock',
      }));
      ctx.keys.invalidate(after.key_hash);
      return { key_hash: after.key_hash, ...keyInfo(identityOf(after)) };
    });
  }
}
