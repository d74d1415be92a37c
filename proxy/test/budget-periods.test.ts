import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDuration, nextPeriodEnd } from '../src/auth/duration.js';
import { claimSoftBudgetAlert, renewBudgetPeriod } from '../src/db/budget-periods-repo.js';
import type { Database } from '../src/db/database.js';
import { findKeyByHash, insertKey } from '../src/db/keys-repo.js';
import { migrate } from '../src/db/migrate.js';
import { insertTeam } from '../src/db/teams-repo.js';
import { closeTestDatabases, engines } from './db-engines.js';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002;

describe('budget_duration arithmetic', () => {
  it('counts `mo` in calendar months, landing on the last day of a shorter month', () => {
    expect(new Date(addDuration(Date.parse('2026-01-31T10:00:00Z'), '1mo')).toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(new Date(addDuration(Date.parse('2026-11-15T00:00:00Z'), '3mo')).toISOString()).toBe(
      '2027-02-15T00:00:00.000Z',
    );
  });

  it('moves a period that ended while nobody called past now by whole durations', () => {
    const from = Date.parse('2026-01-01T00:00:00Z');
    expect(nextPeriodEnd(from, '1d', from + 2.5 * 86_400_000)).toBe(from + 3 * 86_400_000);
    expect(nextPeriodEnd(from, '30s', from)).toBe(from + 30_000);
    expect(new Date(nextPeriodEnd(from, '1mo', Date.parse('2026-03-10T00:00:00Z'))).toISOString()).toBe(
      '2026-04-01T00:00:00.000Z',
    );
  });
});

describe.each(engines)('budget periods in the database ($name)', (engine) => {
  let a: Database;
  let b: Database;
  // opening the embedded database takes seconds on a loaded machine: once for the suite
  beforeAll(async () => {
    [a, b] = await engine.openTwo();
    await migrate(a);
  }, 60_000);
  afterAll(() => closeTestDatabases());

  it('resets a period that has ended once when two processes renew it at the same time', async () => {
    const ended = Date.now() - 500;
    await insertTeam(a, {
      team_id: 'ads',
      max_budget: 1,
      budget_duration: '2s',
      budget_reset_at: new Date(ended),
    });
    await a.query("UPDATE svc_teams SET spend = 0.7, soft_budget_alerted = true WHERE team_id = 'ads'");

    const results = await Promise.all([
      renewBudgetPeriod(a, 'team', 'ads', Date.now()),
      renewBudgetPeriod(b, 'team', 'ads', Date.now()),
    ]);

    expect(results.map((r) => r?.reset).sort()).toEqual([false, true]);
    for (const r of results) expect(r).toMatchObject({ spend: 0, budget_reset_at: new Date(ended + 2000) });
    const { rows } = await a.query<{ soft_budget_alerted: boolean }>(
      "SELECT soft_budget_alerted FROM svc_teams WHERE team_id = 'ads'",
    );
    expect(rows[0]?.soft_budget_alerted).toBe(false);
  });

  it('leaves a running period as it is', async () => {
    const db = a;
    const end = new Date(Date.now() + 60_000);
    await insertKey(db, {
      key_hash: 'a'.repeat(64),
      max_budget: 1,
      budget_duration: '1m',
      budget_reset_at: end,
    });
    await db.query('UPDATE svc_keys SET spend = 0.25 WHERE key_hash = $1', ['a'.repeat(64)]);
    expect(await renewBudgetPeriod(db, 'key', 'a'.repeat(64), Date.now())).toEqual({
      spend: 0.25,
      budget_reset_at: end,
      reset: false,
    });
    expect((await findKeyByHash(db, 'a'.repeat(64)))?.spend).toBe(0.25);
  });

  it('lets one of two processes claim a period’s soft budget alert', async () => {
    await insertKey(a, { key_hash: 'b'.repeat(64), soft_budget: 0.5 });
    const claims = await Promise.all([
      claimSoftBudgetAlert(a, 'key', 'b'.repeat(64)),
      claimSoftBudgetAlert(b, 'key', 'b'.repeat(64)),
      claimSoftBudgetAlert(a, 'key', 'b'.repeat(64)),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});

describe.each(ENGINES)('a budget with a short budget_duration behind the proxy (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);

  it('refuses a spent key until its period ends, then serves it again with spend back at 0', async () => {
    const key = await newKey({ key_alias: 'periodic', max_budget: CALL_COST / 2, budget_duration: '1s' });
    const before = (await get(`/key/info?key=${key.keyHash}`)).body.info;
    expect(before).toMatchObject({ budget_duration: '1s', spend: 0 });
    const firstEnd = Date.parse(before.budget_reset_at);
    expect(firstEnd - Date.now()).toBeLessThanOrEqual(1000);

    expect((await chat(key.headers)).status).toBe(200);
    const refused = await chat(key.headers);
    expect([refused.status, refused.body.error.code]).toEqual([400, 'budget_exceeded']);

    await new Promise((r) => setTimeout(r, Math.max(0, firstEnd - Date.now()) + 50));
    expect((await chat(key.headers)).status).toBe(200);
    const after = (await get(`/key/info?key=${key.keyHash}`)).body.info;
    expect(Date.parse(after.budget_reset_at)).toBeGreaterThan(firstEnd);
  });

  it('lists a key whose period ended with spend 0 and the next reset, before anyone calls', async () => {
    const key = await newKey({ key_alias: 'listed-periodic', max_budget: 1, budget_duration: '1s' });
    expect((await chat(key.headers)).status).toBe(200);
    const listed = async () =>
      (
        (await get('/key/list?size=100')).body.data as {
          key_hash: string;
          spend: number;
          budget_reset_at: string;
        }[]
      ).find((k) => k.key_hash === key.keyHash)!;
    let spent = await listed();
    await eventually(async () => {
      spent = await listed();
      expect(spent.spend).toBeGreaterThan(0);
    });
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(spent.budget_reset_at) - Date.now()) + 50));
    const next = await listed();
    expect(next.spend).toBe(0);
    expect(Date.parse(next.budget_reset_at)).toBeGreaterThan(Date.now());
  });

  it('returns budget_reset_at from every info route where a budget_duration was set', async () => {
    await post('/team/new', { team_id: 'monthly', max_budget: 5, budget_duration: '1mo', soft_budget: 4 });
    await post('/user/new', { user_id: 'weekly', max_budget: 5, budget_duration: '7d' });
    await post('/organization/new', {
      organization_id: 'daily',
      organization_alias: 'daily',
      budget_duration: '1d',
    });
    const team = (await get('/team/info?team_id=monthly')).body.team_info;
    const user = (await get('/user/info?user_id=weekly')).body;
    const org = (await get('/organization/info?organization_id=daily')).body;
    expect(team).toMatchObject({ budget_duration: '1mo', soft_budget: 4 });
    expect(Date.parse(user.budget_reset_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(Date.parse(org.budget_reset_at) - Date.now()).toBeGreaterThan(0.9 * 86_400_000);
    expect(Date.parse(team.budget_reset_at) - Date.now()).toBeGreaterThan(27 * 86_400_000);
  });

  it('accepts budget_duration on /key/generate and refuses one that is not a duration', async () => {
    const ok = await post('/key/generate', { max_budget: 1, budget_duration: '30d' });
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.body.budget_reset_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const bad = await post('/key/generate', { budget_duration: '0s' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('budget_duration');
  });
});
