import { afterAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/database.js';
import { type Migration, migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { closeTestDatabases, engines } from '../db-engines.js';

afterAll(closeTestDatabases);

const ALL = migrations.map((m) => m.name);

async function tables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_name LIKE 'svc\\_%' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

async function recorded(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM svc_schema_migrations ORDER BY name');
  return rows.map((r) => r.name);
}

describe.each(engines)('migrate ($name)', (engine) => {
  it('applies every migration to a fresh database, then nothing on a second run', async () => {
    const db = await engine.open();

    expect(await migrate(db)).toEqual({ applied: ALL });
    expect(await tables(db)).toEqual([
      'svc_audit_logs',
      'svc_customers',
      'svc_jwt_key_mappings',
      'svc_key_grace',
      'svc_keys',
      'svc_organizations',
      'svc_responses',
      'svc_schema_migrations',
      'svc_settings',
      'svc_spend_logs',
      'svc_team_memberships',
      'svc_teams',
      'svc_users',
    ]);
    expect(await migrate(db)).toEqual({ applied: [] });
    expect(await recorded(db)).toEqual(ALL);

    // a later version's migration: only it is applied
    const next: Migration = { name: '999-test-extra', statements: ['CREATE TABLE svc_test_extra (id text)'] };
    expect(await migrate(db, { migrations: [...migrations, next] })).toEqual({ applied: ['999-test-extra'] });
    expect(await recorded(db)).toEqual([...ALL, '999-test-extra']);
  });

  it('applies the schema once when two openers migrate at the same time', async () => {
    const [first, second] = await engine.openTwo();
    const [a, b] = await Promise.all([migrate(first), migrate(second)]);

    expect([...a.applied, ...b.applied]).toEqual(ALL);
    expect(await recorded(first)).toEqual(ALL);
    expect(await tables(second)).toContain('svc_spend_logs');
  });

  it('applies nothing of a run whose statement fails', async () => {
    const db = await engine.open();
    const broken: Migration = { name: '002-broken', statements: ['CREATE TABLE svc_x (id text)', 'NOT SQL'] };

    await expect(migrate(db, { migrations: [...migrations, broken] })).rejects.toThrow(/syntax/);
    expect(await tables(db)).toEqual([]);
  });
});
