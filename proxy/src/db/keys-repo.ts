import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** A virtual key to store. Only its hash is given: the key itself is never stored. */
export interface NewKey {
  /** The key's hash, lower-case hex (the proxy hashes keys before they reach the database). */
  key_hash: string;
  /** Unique among keys when set. */
  key_alias?: string | null | undefined;
  /** Models the key may call; empty means every model. */
  models?: readonly string[] | undefined;
  team_id?: string | null | undefined;
  user_id?: string | null | undefined;
  organization_id?: string | null | undefined;
  /** Dollars. */
  max_budget?: number | null | undefined;
  rpm_limit?: number | null | undefined;
  tpm_limit?: number | null | undefined;
  expires_at?: Date | null | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
  blocked?: boolean | undefined;
}

/** A stored key, as read back. Unset fields are null. */
export interface KeyRecord {
  key_hash: string;
  key_alias: string | null;
  models: string[];
  team_id: string | null;
  user_id: string | null;
  organization_id: string | null;
  max_budget: number | null;
  /** Dollars spent so far, from every spend log row written for the key. */
  spend: number;
  rpm_limit: number | null;
  tpm_limit: number | null;
  expires_at: Date | null;
  metadata: Record<string, unknown>;
  blocked: boolean;
  created_at: Date;
  updated_at: Date;
}

const KEY_COLUMNS = `key_hash, key_alias, models, team_id, user_id, organization_id, max_budget, spend,
  rpm_limit, tpm_limit, expires_at, metadata, blocked, created_at, updated_at`;

// a hash, never a key: a caller passing the key itself by mistake is refused before it is stored
const HEX_HASH = /^[0-9a-f]{32,128}$/;

/**
 * Stores a new key and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `key_alias` when another key has the alias (or `key_hash`
 * for the same hash); TypeError when `key_hash` is not lower-case hex.
 */
export async function insertKey(db: Queryable, key: NewKey): Promise<KeyRecord> {
  if (!HEX_HASH.test(key.key_hash))
    throw new TypeError('insertKey: key_hash must be the key hash as lower-case hex (32 to 128 digits)');
  try {
    const { rows } = await db.query<KeyRecord>(
      `INSERT INTO svc_keys (key_hash, key_alias, models, team_id, user_id, organization_id, max_budget,
  rpm_limit, tpm_limit, expires_at, metadata, blocked)
VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12)
RETURNING ${KEY_COLUMNS}`,
      [
        key.key_hash,
        key.key_alias ?? null,
        JSON.stringify(key.models ?? []),
        key.team_id ?? null,
        key.user_id ?? null,
        key.organization_id ?? null,
        key.max_budget ?? null,
        key.rpm_limit ?? null,
        key.tpm_limit ?? null,
        key.expires_at ?? null,
        JSON.stringify(key.metadata ?? {}),
        key.blocked ?? false,
      ],
    );
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'key') ?? error;
  }
}

/** The key with this hash, or undefined. */
export async function findKeyByHash(db: Queryable, keyHash: string): Promise<KeyRecord | undefined> {
  const { rows } = await db.query<KeyRecord>(`SELECT ${KEY_COLUMNS} FROM svc_keys WHERE key_hash = $1`, [
    keyHash,
  ]);
  return rows[0];
}

/** One page of keys, newest first, and how many there are in all. `page` counts from 1. */
export async function listKeys(
  db: Queryable,
  page: number,
  size: number,
): Promise<{ keys: KeyRecord[]; total: number }> {
  const [{ rows }, counted] = await Promise.all([
    db.query<KeyRecord>(
      `SELECT ${KEY_COLUMNS} FROM svc_keys ORDER BY created_at DESC, key_hash LIMIT $1 OFFSET $2`,
      [size, (page - 1) * size],
    ),
    db.query<{ total: string | number }>('SELECT count(*) AS total FROM svc_keys'),
  ]);
  return { keys: rows, total: Number(counted.rows[0]?.total ?? 0) };
}

/** Deletes the keys with these hashes; returns the hashes that existed. Their spend log rows stay. */
export async function deleteKeys(db: Queryable, keyHashes: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ key_hash: string }>(
    'DELETE FROM svc_keys WHERE key_hash = ANY($1::text[]) RETURNING key_hash',
    [keyHashes],
  );
  return rows.map((r) => r.key_hash).sort();
}
