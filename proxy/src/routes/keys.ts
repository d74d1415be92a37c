import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../auth/authenticate.js';
import type { KeyIdentity } from '../auth/caller.js';
import { addDuration } from '../auth/duration.js';
import { identityOf } from '../auth/key-identity.js';
import { generateVirtualKey, hashKey, isKeyHash } from '../auth/virtual-key.js';
import { insertAudit } from '../db/audit-repo.js';
import { deleteKeys, findKeyByHash, insertKey, listKeys } from '../db/keys-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf, keyRef } from './audit-trail.js';
import { firstBudgetResetAt, inRunningPeriod, periodAsOf } from './budget-fields.js';
import {
  authenticateAdmin,
  budgetDurationField,
  budgetField,
  durationField,
  idField,
  limitField,
  metadataField,
  modelsField,
} from './management-fields.js';

/** `POST /key/generate` (CONTRACT 5.6); `/key/update` takes the same fields. */
export const generateSchema = z.strictObject({
  models: modelsField.default([]),
  team_id: idField.nullish(),
  user_id: idField.nullish(),
  organization_id: idField.nullish(),
  max_budget: budgetField.nullish(),
  budget_duration: budgetDurationField.nullish(),
  soft_budget: budgetField.nullish(),
  rpm_limit: limitField.nullish(),
  tpm_limit: limitField.nullish(),
  duration: durationField.nullish(),
  key_alias: idField.nullish(),
  metadata: metadataField.default({}),
});

const infoQuery = z.strictObject({ key: z.string().min(1).optional() });

const listQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(50),
});

const deleteSchema = z.strictObject({ keys: z.array(z.string().min(1)).min(1).max(100) });

/** The key as `/key/info` shows it: everything but the key itself. */
export function keyInfo(key: KeyIdentity) {
  return {
    key_alias: key.keyAlias,
    models: key.models,
    team_id: key.teamId,
    user_id: key.userId,
    organization_id: key.organizationId,
    spend: key.spend,
    max_budget: key.maxBudget,
    budget_duration: key.budgetDuration,
    budget_reset_at: key.budgetResetAt?.toISOString() ?? null,
    soft_budget: key.softBudget,
    rpm_limit: key.rpmLimit,
    tpm_limit: key.tpmLimit,
    expires: key.expiresAt?.toISOString() ?? null,
    blocked: key.blocked,
    metadata: key.metadata,
  };
}

/**
 * Virtual keys: create, list and delete them (master key or admin token), read one (those, or the key
 * itself).
 */
export function registerKeyRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/key/generate', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/key/generate');
    const body = parseBody(generateSchema, request.body, '/key/generate body');
    const key = generateVirtualKey();
    const keyHash = hashKey(key);
    const expiresAt = body.duration ? new Date(addDuration(ctx.now(), body.duration)) : null;
    const stored = await ctx.db.transaction(async (tx) => {
      const inserted = await insertKey(tx, {
        key_hash: keyHash,
        key_alias: body.key_alias,
        models: body.models,
        team_id: body.team_id,
        user_id: body.user_id,
        organization_id: body.organization_id,
        max_budget: body.max_budget,
        budget_duration: body.budget_duration,
        budget_reset_at: firstBudgetResetAt(ctx.now(), body.budget_duration),
        soft_budget: body.soft_budget,
        rpm_limit: body.rpm_limit,
        tpm_limit: body.tpm_limit,
        expires_at: expiresAt,
        metadata: body.metadata,
      });
      const changes = changesOf('key_hash', undefined, inserted);
      await insertAudit(tx, [auditRow(actor, 'create', 'key', keyRef(keyHash), changes)]);
      return inserted;
    });
    ctx.keys.invalidate(keyHash);
    return { key, key_hash: keyHash, ...keyInfo(identityOf(stored)) };
  });

  app.get('/key/info', async (request) => {
    const caller = await ctx.authenticate(request);
    const { key } = parseBody(infoQuery, request.query, '/key/info query');
    let keyHash: string;
    if (key === undefined) {
      if (caller.kind !== 'key')
        throw new ProxyError(400, 'invalid_request', '`key`: required unless you call with the key itself.');
      keyHash = caller.key.keyHash;
    } else {
      keyHash = isKeyHash(key) ? key : hashKey(key);
      if (caller.kind !== 'key' || caller.key.keyHash !== keyHash)
        requireAdmin(caller, '/key/info for another key');
    }
    const record = await findKeyByHash(ctx.db, keyHash);
    if (!record) throw new ProxyError(404, 'key_not_found', 'No such key.');
    return { key: keyHash, info: keyInfo(identityOf(await inRunningPeriod(ctx, 'key', keyHash, record))) };
  });

  app.get('/key/list', async (request) => {
    requireAdmin(await ctx.authenticate(request), '/key/list');
    const { page, size } = parseBody(listQuery, request.query, '/key/list query');
    const { keys, total } = await listKeys(ctx.db, page, size);
    const now = ctx.now();
    const data = keys.map((record) => ({
      key_hash: record.key_hash,
      ...keyInfo(identityOf(periodAsOf(record, now))),
      created_at: record.created_at.toISOString(),
    }));
    return { data, total, page, size };
  });

  // revoking a key deletes it; its spend log rows stay, naming its hash
  app.post('/key/delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/key/delete');
    const { keys } = parseBody(deleteSchema, request.body, '/key/delete body');
    const hashes = [...new Set(keys.map((key) => (isKeyHash(key) ? key : hashKey(key))))];
    const deleted = await ctx.db.transaction(async (tx) => {
      const records = await deleteKeys(tx, hashes);
      const rows = records.map((record) =>
        auditRow(actor, 'delete', 'key', keyRef(record.key_hash), changesOf('key_hash', record, undefined)),
      );
      await insertAudit(tx, rows);
      return records.map((record) => record.key_hash);
    });
    // each invalidation is also announced to the other processes: only keys that existed need one
    for (const hash of deleted) ctx.keys.invalidate(hash);
    if (deleted.length === 0) throw new ProxyError(404, 'key_not_found', 'None of these keys exists.');
    return { deleted_keys: deleted };
  });
}
