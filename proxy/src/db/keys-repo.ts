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
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration?: string | null | undefined;
  /** When the running budget period ends (set with `budget_duration`). */
  budget_reset_at?: Date | null | undefined;
  /** Dollars; crossing it raises one `budget_alert` per budget period. */
  soft_budget?: number | null | undefined;
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
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration: string | null;
  /** When the running budget period ends: `spend` goes back to 0 then. */
  budget_reset_at: Date | null;
  soft_budget: number | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  expires_at: Date | null;
  metadata: Record<string, unknown>;
  blocked: boolean;
  created_at: Date;
  updated_at: Date;
}

const KEY_COLUMNS = `key_hash, key_alias, models, team_id, user_id, organization_id, max_budget, spend,
  budget_duration, budget_reset_at, soft_budget, rpm_limit, tpm_limit, expires_at, metadata, blocked, created_at, updated_at`;

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
  rpm_limit, tpm_limit, expires_at, metadata, blocked, budget_duration, budget_reset_at, soft_budget)
VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15)
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
        key.budget_duration ?? null,
        key.budget_reset_at ?? null,
        key.soft_budget ?? null,
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

/**
 * Deletes the keys with these hashes (and their old secrets' grace); returns the keys that existed, as
 * they were, by hash. Their spend log rows stay.
 */
export async function deleteKeys(db: Queryable, keyHashes: readonly string[]): Promise<KeyRecord[]> {
  const { rows } = await db.query<KeyRecord>(
    `DELETE FROM svc_keys WHERE key_hash = ANY($1::text[]) RETURNING ${KEY_COLUMNS}`,
    [keyHashes],
  );
  await db.query('DELETE FROM svc_key_grace WHERE key_hash = ANY($1::text[])', [keyHashes]);
  return rows.sort((a, b) => (a.key_hash < b.key_hash ? -1 : 1));
}

/** Where `updateColumns` and `lockRow` find keys. */
export const KEYS_TABLE = { table: 'svc_keys', idColumn: 'key_hash', columns: KEY_COLUMNS };

const PREFIXED_KEY_COLUMNS = KEY_COLUMNS.split(',')
  .map((c) => `k.${c.trim()}`)
  .join(', ');

/**
 * The key a presented secret's hash names, for auth: the key with this hash, or the key a regenerated
 * secret was replaced by while its grace period lasts. For such an old secret `expires_at` is the
 * earlier of the key's expiry and the end of its grace, so it is refused (401) once the grace is over.
 */
export async function findKeyForAuth(db: Queryable, keyHash: string): Promise<KeyRecord | undefined> {
  const { rows } = await db.query<KeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM svc_keys WHERE key_hash = $1
UNION ALL
SELECT ${PREFIXED_KEY_COLUMNS.replace('k.expires_at', 'LEAST(k.expires_at, g.expires_at) AS expires_at')}
FROM svc_key_grace g JOIN svc_keys k ON k.key_hash = g.key_hash
WHERE g.old_hash = $1 AND g.expires_at > now()
LIMIT 1`,
    [keyHash],
  );
  return rows[0];
}

/**
 * Moves the key from `oldHash` to `newHash` (its settings and spend kept; its spend log rows, stored
 * responses, JWT mappings and earlier secrets' grace follow it), and keeps the old secret valid until
 * `graceUntil` (null: not at all). Run in a transaction with the key locked. Expired grace rows go.
 */
export async function rehashKey(
  db: Queryable,
  oldHash: string,
  newHash: string,
  graceUntil: Date | null,
): Promise<KeyRecord | undefined> {
  if (!HEX_HASH.test(newHash)) throw new TypeError('rehashKey: newHash must be a key hash (lower-case hex)');
  const { rows } = await db.query<KeyRecord>(
    `UPDATE svc_keys SET key_hash = $2, updated_at = now() WHERE key_hash = $1 RETURNING ${KEY_COLUMNS}`,
    [oldHash, newHash],
  );
  if (!rows[0]) return undefined;
  for (const table of ['svc_spend_logs', 'svc_responses', 'svc_jwt_key_mappings', 'svc_key_grace']) {
    await db.query(`UPDATE ${table} SET key_hash = $2 WHERE key_hash = $1`, [oldHash, newHash]);
  }
  await db.query('DELETE FROM svc_key_grace WHERE expires_at <= now()');
  if (graceUntil) {
    await db.query('INSERT INTO svc_key_grace (old_hash, key_hash, expires_at) VALUES ($1, $2, $3)', [
      oldHash,
      newHash,
      graceUntil,
    ]);
  }
  return rows[0];
}

/** The keys that name any of these teams (`column` `team_id`) or users (`user_id`), or organizations. */
export async function keysOwnedBy(
  db: Queryable,
  column: 'team_id' | 'user_id' | 'organization_id',
  ids: readonly string[],
): Promise<Array<Pick<KeyRecord, 'key_hash' | 'key_alias'> & { owner: string }>> {
  const { rows } = await db.query<Pick<KeyRecord, 'key_hash' | 'key_alias'> & { owner: string }>(
    `SELECT key_hash, key_alias, ${column} AS owner FROM svc_keys WHERE ${column} = ANY($1::text[])
ORDER BY key_alias NULLS LAST, key_hash`,
    [ids],
  );
  return rows;
}
