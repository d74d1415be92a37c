import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DuplicateError } from '../../src/db/db-errors.js';
import {
  deleteKeyMapping,
  findKeyMapping,
  getKeyMapping,
  insertKeyMapping,
  listKeyMappings,
  updateKeyMapping,
} from '../../src/db/jwt-key-mappings-repo.js';
import { closeTestDatabases, engines, openMigrated } from '../db-engines.js';

afterAll(closeTestDatabases);

const HASH = 'ab'.repeat(32);

describe.each(engines)('JWT key mappings repository ($name)', (engine) => {
  let db: Database;
  let n = 0;
  const mapping = (over: Record<string, unknown> = {}) => ({
    id: `map-${++n}`,
    jwt_claim_name: 'email',
    jwt_claim_value: `user${n}@example.com`,
    key_hash: HASH,
    ...over,
  });
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('stores a mapping (active by default) and reads it back by id and by claim', async () => {
    const stored = await insertKeyMapping(db, mapping({ description: 'billing bot' }));
    expect(stored).toMatchObject({
      jwt_claim_name: 'email',
      key_hash: HASH,
      description: 'billing bot',
      is_active: true,
    });
    expect(stored.created_at).toBeInstanceOf(Date);
    expect(await getKeyMapping(db, stored.id)).toEqual(stored);
    expect(await findKeyMapping(db, 'email', stored.jwt_claim_value)).toEqual(stored);
  });

  it('answers undefined for a missing id or claim', async () => {
    expect(await getKeyMapping(db, 'map-missing')).toBeUndefined();
    expect(await findKeyMapping(db, 'email', 'nobody@example.com')).toBeUndefined();
  });

  it('refuses a second mapping for the same claim name and value as a DuplicateError', async () => {
    const first = await insertKeyMapping(db, mapping());
    const second = insertKeyMapping(db, mapping({ jwt_claim_value: first.jwt_claim_value }));
    await expect(second).rejects.toBeInstanceOf(DuplicateError);
    await expect(second).rejects.toMatchObject({ status: 409, field: 'jwt_claim_name, jwt_claim_value' });
  });

  it('takes the same claim value under another claim name', async () => {
    const first = await insertKeyMapping(db, mapping());
    await expect(
      insertKeyMapping(db, mapping({ jwt_claim_name: 'sub', jwt_claim_value: first.jwt_claim_value })),
    ).resolves.toMatchObject({ jwt_claim_name: 'sub' });
  });

  it('refuses to store something that is not a key hash, without quoting it', async () => {
    const storing = insertKeyMapping(db, mapping({ key_hash: 'sk-svc-secret-value' }));
    await expect(storing).rejects.toThrow(/key_hash must be the key hash/);
    await expect(storing).rejects.not.toThrow(/sk-svc/);
  });

  it('updates the description and activity, each only when given', async () => {
    const { id } = await insertKeyMapping(db, mapping({ description: 'old' }));
    expect(await updateKeyMapping(db, id, { is_active: false })).toMatchObject({
      description: 'old',
      is_active: false,
    });
    expect(await updateKeyMapping(db, id, { description: 'new' })).toMatchObject({
      description: 'new',
      is_active: false,
    });
    expect(await updateKeyMapping(db, id, { description: null })).toMatchObject({ description: null });
  });

  it('answers undefined when updating or deleting a missing mapping', async () => {
    expect(await updateKeyMapping(db, 'map-missing', { is_active: true })).toBeUndefined();
    expect(await deleteKeyMapping(db, 'map-missing')).toBeUndefined();
  });

  it('deletes a mapping and returns it as it was', async () => {
    const stored = await insertKeyMapping(db, mapping());
    expect(await deleteKeyMapping(db, stored.id)).toEqual(stored);
    expect(await getKeyMapping(db, stored.id)).toBeUndefined();
  });
});

describe.each(engines)('JWT key mapping pages ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
    for (let i = 1; i <= 5; i++) {
      await insertKeyMapping(db, {
        id: `m${i}`,
        jwt_claim_name: 'email',
        jwt_claim_value: `u${i}@example.com`,
        key_hash: HASH,
      });
    }
  });

  it('pages oldest first, with the total of all mappings', async () => {
    const first = await listKeyMappings(db, { page: 1, size: 2 });
    const third = await listKeyMappings(db, { page: 3, size: 2 });
    expect(first.total).toBe(5);
    expect(first.rows.map((r) => r.id)).toEqual(['m1', 'm2']);
    expect(third.rows.map((r) => r.id)).toEqual(['m5']);
  });

  it('answers an empty page past the end, still with the total', async () => {
    expect(await listKeyMappings(db, { page: 9, size: 2 })).toEqual({ rows: [], total: 5 });
  });

  it('refuses a page or size below 1', async () => {
    await expect(listKeyMappings(db, { page: 0, size: 2 })).rejects.toBeInstanceOf(RangeError);
    await expect(listKeyMappings(db, { page: 1, size: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
