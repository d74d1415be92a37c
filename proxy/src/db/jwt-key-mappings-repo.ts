import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** A JWT-to-virtual-key mapping to store (spec 2.5). Only the key's hash is given, never the key. */
export interface NewKeyMapping {
  id: string;
  jwt_claim_name: string;
  jwt_claim_value: string;
  /** The mapped key's hash, lower-case hex. */
  key_hash: string;
  description?: string | null | undefined;
  /** @default true */
  is_active?: boolean | undefined;
}

/** A stored mapping, as read back. */
export interface KeyMappingRow {
  id: string;
  jwt_claim_name: string;
  jwt_claim_value: string;
  key_hash: string;
  description: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The fields `/jwt/key/mapping/update` may change; a field left out keeps its value. */
export interface KeyMappingChanges {
  description?: string | null | undefined;
  is_active?: boolean | undefined;
}

const COLUMNS =
  'id, jwt_claim_name, jwt_claim_value, key_hash, description, is_active, created_at, updated_at';

// a hash, never a key: a caller passing the key itself by mistake is refused before it is stored
const HEX_HASH = /^[0-9a-f]{32,128}$/;

/**
 * Stores a new mapping and returns it as stored.
 * @throws DuplicateError (409) when a mapping has the same (`jwt_claim_name`, `jwt_claim_value`), or
 * the same id; TypeError when `key_hash` is not lower-case hex.
 */
export async function insertKeyMapping(db: Queryable, mapping: NewKeyMapping): Promise<KeyMappingRow> {
  if (!HEX_HASH.test(mapping.key_hash))
    throw new TypeError('insertKeyMapping: key_hash must be the key hash as lower-case hex');
  try {
    const { rows } = await db.query<KeyMappingRow>(
      `INSERT INTO svc_jwt_key_mappings (id, jwt_claim_name, jwt_claim_value, key_hash, description, is_active)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING ${COLUMNS}`,
      [
        mapping.id,
        mapping.jwt_claim_name,
        mapping.jwt_claim_value,
        mapping.key_hash,
        mapping.description ?? null,
        mapping.is_active ?? true,
      ],
    );
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'JWT key mapping') ?? error;
  }
}

/** The mapping with this id, or undefined. */
export async function getKeyMapping(db: Queryable, id: string): Promise<KeyMappingRow | undefined> {
  const { rows } = await db.query<KeyMappingRow>(
    `SELECT ${COLUMNS} FROM svc_jwt_key_mappings WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** The mapping for exactly this claim name and value, active or not; undefined when none. */
export async function findKeyMapping(
  db: Queryable,
  claimName: string,
  claimValue: string,
): Promise<KeyMappingRow | undefined> {
  const { rows } = await db.query<KeyMappingRow>(
    `SELECT ${COLUMNS} FROM svc_jwt_key_mappings WHERE jwt_claim_name = $1 AND jwt_claim_value = $2`,
    [claimName, claimValue],
  );
  return rows[0];
}

/** One page of mappings, oldest first, and how many there are in all. */
export interface KeyMappingPage {
  rows: KeyMappingRow[];
  total: number;
}

/**
 * Page `page` (from 1) of `size` mappings, oldest first (ties by id, so pages never overlap).
 * @throws RangeError when `page` or `size` is not a whole number of at least 1.
 */
export async function listKeyMappings(
  db: Queryable,
  { page, size }: { page: number; size: number },
): Promise<KeyMappingPage> {
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1)
    throw new RangeError('listKeyMappings: page and size must be whole numbers of at least 1');
  const [{ rows }, { rows: counted }] = await Promise.all([
    db.query<KeyMappingRow>(
      `SELECT ${COLUMNS} FROM svc_jwt_key_mappings ORDER BY created_at, id LIMIT $1 OFFSET $2`,
      [size, (page - 1) * size],
    ),
    db.query<{ total: number }>('SELECT count(*)::integer AS total FROM svc_jwt_key_mappings'),
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** Changes the mapping's description and/or activity; returns it as stored, undefined when missing. */
export async function updateKeyMapping(
  db: Queryable,
  id: string,
  changes: KeyMappingChanges,
): Promise<KeyMappingRow | undefined> {
  const { rows } = await db.query<KeyMappingRow>(
    `UPDATE svc_jwt_key_mappings SET
  description = CASE WHEN $2::boolean THEN $3::text ELSE description END,
  is_active = COALESCE($4::boolean, is_active),
  updated_at = now()
WHERE id = $1
RETURNING ${COLUMNS}`,
    [id, changes.description !== undefined, changes.description ?? null, changes.is_active ?? null],
  );
  return rows[0];
}

/** Deletes the mapping; returns it as it was, undefined when there was none. */
export async function deleteKeyMapping(db: Queryable, id: string): Promise<KeyMappingRow | undefined> {
  const { rows } = await db.query<KeyMappingRow>(
    `DELETE FROM svc_jwt_key_mappings WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0];
}
