import type { Queryable } from '../../src/db/database.js';
import type { SpendLogRow } from '../../src/db/spend-repo.js';

let n = 0;

/** A unique id with a readable prefix. */
export const uid = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

/** A key hash nobody else uses. */
export const newKeyHash = () => `${(++n).toString(16).padStart(8, '0')}${'c'.repeat(56)}`;

/** A successful call's spend log row; `overrides` set what the test is about. */
export function spendRow(overrides: Partial<SpendLogRow> = {}): SpendLogRow {
  const start = new Date('2025-03-01T10:00:00.000Z');
  return {
    call_id: uid('call'),
    model_group: 'gpt-4o',
    model_id: 'gpt-4o-eu',
    provider: 'openai',
    route: '/v1/chat/completions',
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
    cost: 0.001,
    status: 'success',
    http_status: 200,
    latency_ms: 120,
    cache_hit: false,
    stream: false,
    priced: true,
    tags: null,
    start_time: start,
    end_time: new Date(start.getTime() + 120),
    ...overrides,
  };
}

/** Stores a user, a team and an organization (spend 0) that rows can be charged to. */
export async function seedOwners(
  db: Queryable,
  ids: { user_id: string; team_id: string; organization_id: string },
) {
  await db.query('INSERT INTO svc_users (user_id) VALUES ($1)', [ids.user_id]);
  await db.query('INSERT INTO svc_teams (team_id) VALUES ($1)', [ids.team_id]);
  await db.query('INSERT INTO svc_organizations (organization_id) VALUES ($1)', [ids.organization_id]);
}

/** The spend recorded on a user, team or organization row. */
export async function spendOf(
  db: Queryable,
  owner: 'user' | 'team' | 'organization',
  id: string,
): Promise<number | undefined> {
  const table = { user: 'svc_users', team: 'svc_teams', organization: 'svc_organizations' }[owner];
  const { rows } = await db.query<{ spend: number }>(`SELECT spend FROM ${table} WHERE ${owner}_id = $1`, [
    id,
  ]);
  return rows[0]?.spend;
}
