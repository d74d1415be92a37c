import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DuplicateError } from '../../src/db/db-errors.js';
import { findKeyByHash, insertKey } from '../../src/db/keys-repo.js';
import { closeTestDatabases, engines, openMigrated } from '../db-engines.js';

afterAll(closeTestDatabases);

let n = 0;
const newHash = () => (++n).toString(16).padStart(64, '0');

describe.each(engines)('keys repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('stores a key and reads it back by its hash, with every field', async () => {
    const key_hash = newHash();
    const expires_at = new Date('2030-01-02T03:04:05.000Z');

    const stored = await insertKey(db, {
      key_hash,
      key_alias: 'billing-bot',
      models: ['gpt-4o', 'claude-*'],
      team_id: 'team-a',
      user_id: 'user-a',
      organization_id: 'org-a',
      max_budget: 12.5,
      rpm_limit: 60,
      tpm_limit: 100_000,
      expires_at,
      metadata: { owner: 'finance', tags: ['x'] },
    });

    expect(stored).toMatchObject({
      key_hash,
      key_alias: 'billing-bot',
      models: ['gpt-4o', 'claude-*'],
      team_id: 'team-a',
      user_id: 'user-a',
      organization_id: 'org-a',
      max_budget: 12.5,
      spend: 0,
      rpm_limit: 60,
      tpm_limit: 100_000,
      expires_at,
      metadata: { owner: 'finance', tags: ['x'] },
      blocked: false,
    });
    expect(stored.created_at).toBeInstanceOf(Date);
    expect(await findKeyByHash(db, key_hash)).toEqual(stored);
  });

  it('stores unset fields as null, no models and empty metadata', async () => {
    const key_hash = newHash();
    expect(await insertKey(db, { key_hash })).toMatchObject({
      key_alias: null,
      models: [],
      team_id: null,
      max_budget: null,
      expires_at: null,
      metadata: {},
    });
  });

  it('answers undefined for a hash it does not hold', async () => {
    expect(await findKeyByHash(db, newHash())).toBeUndefined();
  });

  it('refuses a second key with the same alias as a DuplicateError naming key_alias', async () => {
    await insertKey(db, { key_hash: newHash(), key_alias: 'taken' });

    const second = insertKey(db, { key_hash: newHash(), key_alias: 'taken' });
    await expect(second).rejects.toBeInstanceOf(DuplicateError);
    await expect(second).rejects.toMatchObject({ field: 'key_alias', status: 409 });
  });

  it('lets any number of keys go without an alias', async () => {
    await insertKey(db, { key_hash: newHash() });
    await expect(insertKey(db, { key_hash: newHash() })).resolves.toMatchObject({ key_alias: null });
  });

  it('refuses the same hash twice as a DuplicateError naming key_hash', async () => {
    const key_hash = newHash();
    await insertKey(db, { key_hash });
    await expect(insertKey(db, { key_hash })).rejects.toMatchObject({ field: 'key_hash' });
  });

  it('refuses to store something that is not a hash, without quoting it', async () => {
    const storing = insertKey(db, { key_hash: 'sk-live-0123456789abcdef0123456789abcdef' });
    await expect(storing).rejects.toThrow(/key_hash must be the key hash/);
    await expect(storing).rejects.not.toThrow(/sk-live/);
  });
});
