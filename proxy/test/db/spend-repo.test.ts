import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { findKeyByHash, insertKey } from '../../src/db/keys-repo.js';
import { migrate } from '../../src/db/migrate.js';
import { MAX_STORED_TEXT_LENGTH } from '../../src/db/spend-log-row.js';
import { querySpendLogs, spendReport, writeSpendBatch } from '../../src/db/spend-repo.js';
import { closeTestDatabases, engines, openMigrated } from '../db-engines.js';
import { newKeyHash, seedOwners, spendOf, spendRow, uid } from './spend-rows.js';

afterAll(closeTestDatabases);

const at = (iso: string) => new Date(`2025-03-01T${iso}.000Z`);

describe.each(engines)('spend repository ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  async function owned() {
    const ids = {
      key_hash: newKeyHash(),
      user_id: uid('user'),
      team_id: uid('team'),
      organization_id: uid('org'),
    };
    await insertKey(db, { key_hash: ids.key_hash });
    await seedOwners(db, ids);
    return ids;
  }

  async function totals(ids: Awaited<ReturnType<typeof owned>>) {
    return {
      key: (await findKeyByHash(db, ids.key_hash))?.spend,
      user: await spendOf(db, 'user', ids.user_id),
      team: await spendOf(db, 'team', ids.team_id),
      organization: await spendOf(db, 'organization', ids.organization_id),
    };
  }

  it('stores every field of a row and reads it back', async () => {
    const row = spendRow({
      key_hash: newKeyHash(),
      user_id: 'u',
      team_id: 't',
      organization_id: 'o',
      end_user: 'customer-7',
      status: 'failure',
      error_code: 'rate_limit',
      http_status: 429,
      cost: 0,
      cache_hit: true,
      stream: true,
      latency_ms: 12.5,
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      usage_estimated: true,
      priced: false,
      tags: ['checkout', 'prod'],
    });

    expect(await writeSpendBatch(db, [row])).toEqual({ inserted: 1 });
    expect(await querySpendLogs(db, { key_hash: row.key_hash! })).toEqual([row]);
  });

  it('stores text holding quotes and backslashes exactly as sent', async () => {
    const tricky = `o'brien '' \\' \\\\ $$ \u00e9 "q"`;
    const row = spendRow({
      key_hash: newKeyHash(),
      end_user: tricky,
      tags: [tricky, "'); DROP TABLE x; --"],
    });

    expect(await writeSpendBatch(db, [row])).toEqual({ inserted: 1 });

    const [stored] = await querySpendLogs(db, { key_hash: row.key_hash as string });
    expect(stored?.end_user).toBe(tricky);
    expect(stored?.tags).toEqual([tricky, "'); DROP TABLE x; --"]);
  });

  it('stores text holding tabs, line breaks, backslashes and a literal \\N exactly as sent', async () => {
    const tricky = 'a\tb\nc\r\nd \\N \\ {x,"y"} \u00e9';
    const row = spendRow({
      key_hash: newKeyHash(),
      end_user: tricky,
      error_code: '\\N',
      tags: [tricky, '', 'with, comma', '{braces}', 'NULL'],
      latency_ms: 0.000123,
      cost: 1e-7,
    });

    expect(await writeSpendBatch(db, [row])).toEqual({ inserted: 1 });
    const [stored] = await querySpendLogs(db, { key_hash: row.key_hash! });
    expect(stored).toMatchObject({
      end_user: tricky,
      error_code: '\\N',
      tags: [tricky, '', 'with, comma', '{braces}', 'NULL'],
      latency_ms: 0.000123,
      cost: 1e-7,
    });
  });

  it("adds the rows' cost to their key, user, team and organization", async () => {
    const ids = await owned();

    await writeSpendBatch(db, [spendRow({ ...ids, cost: 0.25 }), spendRow({ ...ids, cost: 0.5 })]);

    expect(await totals(ids)).toEqual({ key: 0.75, user: 0.75, team: 0.75, organization: 0.75 });
  });

  it('stores and charges a batch written twice only once', async () => {
    const ids = await owned();
    const batch = [spendRow({ ...ids, cost: 1 }), spendRow({ ...ids, cost: 2 })];

    expect(await writeSpendBatch(db, batch)).toEqual({ inserted: 2 });
    expect(await writeSpendBatch(db, batch)).toEqual({ inserted: 0 });

    expect(await totals(ids)).toEqual({ key: 3, user: 3, team: 3, organization: 3 });
    expect(await querySpendLogs(db, { key_hash: ids.key_hash })).toHaveLength(2);
  });

  it('charges only the new rows of a batch that repeats some', async () => {
    const ids = await owned();
    const old = spendRow({ ...ids, cost: 1 });
    await writeSpendBatch(db, [old]);

    expect(await writeSpendBatch(db, [old, spendRow({ ...ids, cost: 4 })])).toEqual({ inserted: 1 });

    expect((await totals(ids)).key).toBe(5);
  });

  it('stores and charges a call id repeated within one batch once', async () => {
    const ids = await owned();
    const row = spendRow({ ...ids, cost: 2 });

    expect(await writeSpendBatch(db, [row, { ...row }])).toEqual({ inserted: 1 });
    expect((await totals(ids)).team).toBe(2);
  });

  it('writes rows whose key, user, team or organization is not stored, charging nobody', async () => {
    const row = spendRow({ key_hash: newKeyHash(), user_id: uid('ghost'), team_id: uid('ghost'), cost: 9 });

    expect(await writeSpendBatch(db, [row])).toEqual({ inserted: 1 });
    expect(await findKeyByHash(db, row.key_hash!)).toBeUndefined();
  });

  it('writes a row whose values no column accepts as is, repaired', async () => {
    const row = spendRow({
      key_hash: newKeyHash(),
      end_user: 'bad\0name\uD800',
      cost: Number.NaN,
      prompt_tokens: 3.7,
      total_tokens: Number.POSITIVE_INFINITY,
      end_time: new Date(Number.NaN),
    });

    expect(await writeSpendBatch(db, [row])).toEqual({ inserted: 1 });
    expect((await querySpendLogs(db, { key_hash: row.key_hash! }))[0]).toMatchObject({
      end_user: 'badname\uFFFD',
      cost: 0,
      prompt_tokens: 4,
      total_tokens: 0,
      end_time: row.start_time,
    });
  });

  it('repairs half a surrogate pair in text that holds no NUL', async () => {
    const row = spendRow({ key_hash: newKeyHash(), end_user: 'half\uD83D', error_code: '\uDE00end' });

    await writeSpendBatch(db, [row]);

    expect((await querySpendLogs(db, { key_hash: row.key_hash! }))[0]).toMatchObject({
      end_user: 'half\uFFFD',
      error_code: '\uFFFDend',
    });
  });

  it('stores the first 1024 characters of text longer than that, a pair cut in half repaired', async () => {
    const row = spendRow({
      key_hash: newKeyHash(),
      end_user: 'u'.repeat(300_000),
      model_group: `${'m'.repeat(1023)}👋`,
    });

    await writeSpendBatch(db, [row]);

    const [stored] = await querySpendLogs(db, { key_hash: row.key_hash! });
    expect(stored?.end_user).toBe('u'.repeat(MAX_STORED_TEXT_LENGTH));
    expect(stored?.model_group).toBe(`${'m'.repeat(1023)}\uFFFD`);
  });

  it('stores an owner id longer than 1024 characters whole, and charges its owner', async () => {
    const user_id = `${uid('jwt-user')}${'u'.repeat(2000)}`;
    await db.query('INSERT INTO svc_users (user_id) VALUES ($1)', [user_id]);

    await writeSpendBatch(db, [spendRow({ user_id, cost: 0.5 })]);

    expect(await spendOf(db, 'user', user_id)).toBe(0.5);
    expect((await querySpendLogs(db, { user_id }))[0]?.user_id).toBe(user_id);
  });

  it('writes a batch of 1000 rows whose end user is 300,000 characters each', async () => {
    // 300 MB as sent: past the 256 MB of jsonb one Postgres statement takes
    const key_hash = newKeyHash();
    const end_user = 'u'.repeat(300_000);
    const rows = Array.from({ length: 1000 }, () => spendRow({ key_hash, end_user }));

    expect(await writeSpendBatch(db, rows)).toEqual({ inserted: 1000 });
  });

  it('stores text holding whole surrogate pairs (an emoji) unchanged', async () => {
    const row = spendRow({ key_hash: newKeyHash(), end_user: 'Zoë 👋🏽', error_code: 'x\uD83D\uDE00y' });

    await writeSpendBatch(db, [row]);

    expect((await querySpendLogs(db, { key_hash: row.key_hash! }))[0]).toMatchObject({
      end_user: 'Zoë 👋🏽',
      error_code: 'x\uD83D\uDE00y',
    });
  });

  it('stores an untagged row with tags null, and an empty list as null', async () => {
    const untagged = spendRow({ key_hash: newKeyHash() });
    const empty = spendRow({ key_hash: newKeyHash(), tags: [] });
    await writeSpendBatch(db, [untagged, empty]);

    expect((await querySpendLogs(db, { key_hash: untagged.key_hash! }))[0]?.tags).toBeNull();
    expect((await querySpendLogs(db, { key_hash: empty.key_hash! }))[0]?.tags).toBeNull();
  });

  it('sums spend by tag: a call with two tags counts in both, untagged calls under null', async () => {
    // a day of its own, so that other tests' rows are not summed
    const start = new Date('2024-02-03T08:00:00.000Z');
    const on = (tags: string[] | null, cost: number) =>
      spendRow({ start_time: start, end_time: start, tags, cost, prompt_tokens: 2, completion_tokens: 1 });
    await writeSpendBatch(db, [on(['checkout', 'prod'], 1), on(['prod'], 2), on(null, 4)]);

    const rows = await spendReport(
      db,
      'tag',
      new Date('2024-02-03T00:00:00Z'),
      new Date('2024-02-04T00:00:00Z'),
    );

    const row = (group: string | null, spend: number, requests: number) => ({
      day: '2024-02-03',
      group,
      spend,
      requests,
      prompt_tokens: 2 * requests,
      completion_tokens: requests,
    });
    expect(rows).toEqual([row('checkout', 1, 1), row('prod', 3, 2), row(null, 4, 1)]);
  });

  it('writes an empty batch as nothing', async () => {
    expect(await writeSpendBatch(db, [])).toEqual({ inserted: 0 });
  });

  describe('querySpendLogs', () => {
    const team_id = uid('team-q');
    const user_id = uid('user-q');
    const key_hash = newKeyHash();
    const rows = [
      spendRow({ call_id: uid('q'), team_id, user_id, key_hash, start_time: at('10:00:00') }),
      spendRow({ call_id: uid('q'), team_id, user_id, start_time: at('12:00:00') }),
      spendRow({ call_id: uid('q'), team_id, key_hash, start_time: at('11:00:00') }),
      spendRow({ call_id: uid('q'), team_id, start_time: at('09:00:00') }),
    ];
    const ids = (found: { call_id: string }[]) => found.map((r) => r.call_id);
    const [r10, r12, r11, r09] = ids(rows);

    beforeAll(async () => {
      await writeSpendBatch(db, rows);
    });

    it('returns the newest call first', async () => {
      expect(ids(await querySpendLogs(db, { team_id }))).toEqual([r12, r11, r10, r09]);
    });

    it('filters by key hash and by user', async () => {
      expect(ids(await querySpendLogs(db, { key_hash }))).toEqual([r11, r10]);
      expect(ids(await querySpendLogs(db, { user_id }))).toEqual([r12, r10]);
    });

    it('filters by a start and end time, both inclusive', async () => {
      const found = await querySpendLogs(db, {
        team_id,
        start_date: at('10:00:00'),
        end_date: at('11:00:00'),
      });
      expect(ids(found)).toEqual([r11, r10]);
    });

    it('returns at most `limit` rows, at least one', async () => {
      expect(ids(await querySpendLogs(db, { team_id, limit: 2 }))).toEqual([r12, r11]);
      expect(ids(await querySpendLogs(db, { team_id, limit: 0 }))).toEqual([r12]);
    });

    it('returns 100 rows by default and never more than 1000', async () => {
      const many = uid('team-many');
      const batch = Array.from({ length: 1001 }, () => spendRow({ team_id: many }));
      await writeSpendBatch(db, batch);

      expect(await querySpendLogs(db, { team_id: many })).toHaveLength(100);
      expect(await querySpendLogs(db, { team_id: many, limit: 5000 })).toHaveLength(1000);
    });
  });

  it('lets two writers charge the same owners at once, in any order, each cost counted once', async () => {
    const [a, b] = await engine.openTwo();
    await migrate(a);
    const keys = [newKeyHash(), newKeyHash(), newKeyHash()];
    for (const key_hash of keys) await insertKey(a, { key_hash });
    const batchFor = (order: string[]) => order.map((key_hash) => spendRow({ key_hash, cost: 1 }));

    await Promise.all(
      Array.from({ length: 10 }, () => [
        writeSpendBatch(a, batchFor(keys)),
        writeSpendBatch(b, batchFor([...keys].reverse())),
      ]).flat(),
    );

    for (const key_hash of keys) expect((await findKeyByHash(a, key_hash))?.spend).toBe(20);
  });

  it('lets two writers charge the same users, teams, organizations and customers at once, in any order', async () => {
    const [a, b] = await engine.openTwo();
    await migrate(a);
    const owners = [0, 1, 2].map(() => ({
      user_id: uid('user'),
      team_id: uid('team'),
      organization_id: uid('org'),
      end_user: uid('customer'),
    }));
    for (const ids of owners) {
      await seedOwners(a, ids);
      await a.query('INSERT INTO svc_customers (user_id) VALUES ($1)', [ids.end_user]);
    }
    const batchFor = (order: typeof owners) => order.map((ids) => spendRow({ ...ids, cost: 1 }));

    await Promise.all(
      Array.from({ length: 10 }, () => [
        writeSpendBatch(a, batchFor(owners)),
        writeSpendBatch(b, batchFor([...owners].reverse())),
      ]).flat(),
    );

    for (const ids of owners) {
      expect(await spendOf(a, 'user', ids.user_id)).toBe(20);
      expect(await spendOf(a, 'team', ids.team_id)).toBe(20);
      expect(await spendOf(a, 'organization', ids.organization_id)).toBe(20);
      const { rows } = await a.query<{ spend: number }>(
        'SELECT spend FROM svc_customers WHERE user_id = $1',
        [ids.end_user],
      );
      expect(rows[0]?.spend).toBe(20);
    }
  });
});
