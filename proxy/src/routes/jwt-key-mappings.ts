import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashKey, isKeyHash } from '../auth/virtual-key.js';
import { insertAudit } from '../db/audit-repo.js';
import {
  deleteKeyMapping,
  getKeyMapping,
  insertKeyMapping,
  type KeyMappingRow,
  listKeyMappings,
  updateKeyMapping,
} from '../db/jwt-key-mappings-repo.js';
import { findKeyByHash } from '../db/keys-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf, keyRef } from './audit-trail.js';
import { authenticateAdmin, exactText, freeText, idField, newId } from './management-fields.js';

/** `GET /jwt/key/mapping/list`: page size when none is asked for, and the largest allowed. */
export const DEFAULT_MAPPING_PAGE_SIZE = 50;
export const MAX_MAPPING_PAGE_SIZE = 500;

// claim values are matched exactly as the token carries them: not trimmed
const claimField = exactText(1024);
const description = freeText(4096);

const newSchema = z.strictObject({
  jwt_claim_name: claimField,
  jwt_claim_value: claimField,
  key: z.string().min(1),
  description: description.nullish(),
  is_active: z.boolean().default(true),
});

const listQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(MAX_MAPPING_PAGE_SIZE).default(DEFAULT_MAPPING_PAGE_SIZE),
});

const idSchema = z.strictObject({ id: idField });

const updateSchema = z.strictObject({
  id: idField,
  description: description.nullish(),
  is_active: z.boolean().optional(),
});

/** A mapping as every mapping route answers: never the key, nor its hash. */
function mappingView(row: KeyMappingRow) {
  return {
    id: row.id,
    jwt_claim_name: row.jwt_claim_name,
    jwt_claim_value: row.jwt_claim_value,
    description: row.description,
    is_active: row.is_active,
    created_at: row.created_at,
  };
}

function notFound(id: string): ProxyError {
  return new ProxyError(404, 'mapping_not_found', `No JWT key mapping \`${id}\`.`);
}

/**
 * JWT-to-virtual-key mappings (spec 5.7; master key only). The key is given as the key itself or its
 * hash and stored as its hash; no answer shows either.
 */
export function registerJwtKeyMappingRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/jwt/key/mapping/new', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/jwt/key/mapping/new');
    const body = parseBody(newSchema, request.body, '/jwt/key/mapping/new body');
    const keyHash = isKeyHash(body.key) ? body.key : hashKey(body.key);
    if (!(await findKeyByHash(ctx.db, keyHash))) {
      throw new ProxyError(400, 'key_not_found', '`key`: no virtual key matches it.');
    }
    const row = await ctx.db.transaction(async (tx) => {
      const inserted = await insertKeyMapping(tx, {
        id: newId('map'),
        jwt_claim_name: body.jwt_claim_name,
        jwt_claim_value: body.jwt_claim_value,
        key_hash: keyHash,
        description: body.description,
        is_active: body.is_active,
      });
      const changes = changesOf('id', undefined, inserted);
      changes.key = { before: null, after: keyRef(keyHash) };
      await insertAudit(tx, [auditRow(actor, 'create', 'jwt_key_mapping', inserted.id, changes)]);
      return inserted;
    });
    // the JWT module caches mappings (and their absence) for virtual_key_mapping_cache_ttl
    ctx.jwt?.auth.clearCaches();
    return mappingView(row);
  });

  app.get('/jwt/key/mapping/list', async (request) => {
    await authenticateAdmin(ctx, request, '/jwt/key/mapping/list');
    const { page, size } = parseBody(listQuery, request.query, '/jwt/key/mapping/list query');
    const { rows, total } = await listKeyMappings(ctx.db, { page, size });
    return { data: rows.map(mappingView), total, page, size };
  });

  app.get('/jwt/key/mapping/info', async (request) => {
    await authenticateAdmin(ctx, request, '/jwt/key/mapping/info');
    const { id } = parseBody(idSchema, request.query, '/jwt/key/mapping/info query');
    const row = await getKeyMapping(ctx.db, id);
    if (!row) throw notFound(id);
    return mappingView(row);
  });

  app.post('/jwt/key/mapping/update', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/jwt/key/mapping/update');
    const { id, ...changes } = parseBody(updateSchema, request.body, '/jwt/key/mapping/update body');
    const row = await ctx.db.transaction(async (tx) => {
      const before = await getKeyMapping(tx, id);
      const after = await updateKeyMapping(tx, id, changes);
      if (!after) throw notFound(id);
      await insertAudit(tx, [
        auditRow(actor, 'update', 'jwt_key_mapping', id, changesOf('id', before, after)),
      ]);
      return after;
    });
    // the JWT module caches mappings (and their absence) for virtual_key_mapping_cache_ttl
    ctx.jwt?.auth.clearCaches();
    return mappingView(row);
  });

  app.post('/jwt/key/mapping/delete', async (request) => {
    const actor = await authenticateAdmin(ctx, request, '/jwt/key/mapping/delete');
    const { id } = parseBody(idSchema, request.body, '/jwt/key/mapping/delete body');
    const row = await ctx.db.transaction(async (tx) => {
      const deleted = await deleteKeyMapping(tx, id);
      if (!deleted) throw notFound(id);
      const changes = changesOf('id', deleted, undefined);
      await insertAudit(tx, [auditRow(actor, 'delete', 'jwt_key_mapping', id, changes)]);
      return deleted;
    });
    // the JWT module caches mappings (and their absence) for virtual_key_mapping_cache_ttl
    ctx.jwt?.auth.clearCaches();
    return mappingView(row);
  });
}
