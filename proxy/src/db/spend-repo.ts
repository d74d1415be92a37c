import { copyTextLine } from './copy-text.js';
import type { Database, Queryable } from './database.js';
import { SPEND_COLUMNS, type SpendLogRecord, type SpendLogRow, storedValues } from './spend-log-row.js';

export type { SpendLogRecord, SpendLogRow } from './spend-log-row.js';

const COLUMN_TYPES: Record<(typeof SPEND_COLUMNS)[number], string> = {
  call_id: 'text',
  key_hash: 'text',
  user_id: 'text',
  team_id: 'text',
  organization_id: 'text',
  end_user: 'text',
  model_group: 'text',
  model_id: 'text',
  provider: 'text',
  route: 'text',
  prompt_tokens: 'integer',
  completion_tokens: 'integer',
  total_tokens: 'integer',
  cost: 'double precision',
  status: 'text',
  error_code: 'text',
  http_status: 'integer',
  latency_ms: 'double precision',
  cache_hit: 'boolean',
  stream: 'boolean',
  start_time: 'timestamptz',
  end_time: 'timestamptz',
  trace_id: 'text',
  usage_estimated: 'boolean',
  priced: 'boolean',
  tags: 'text[]',
};

const COLUMNS = SPEND_COLUMNS.join(', ');

/** Field `column` of a batch row `r` (an array in `SPEND_COLUMNS` order, times in epoch ms), typed. */
function field(column: (typeof SPEND_COLUMNS)[number]): string {
  const value = `r->>${SPEND_COLUMNS.indexOf(column)}`;
  const type = COLUMN_TYPES[column];
  if (type === 'text[]') {
    const list = `r->${SPEND_COLUMNS.indexOf(column)}`;
    return `CASE WHEN jsonb_typeof(${list}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(${list})) END`;
  }
  if (type === 'timestamptz') return `to_timestamp((${value})::double precision / 1000)`;
  return type === 'text' ? value : `(${value})::${type}`;
}

// one row per array: jsonb reads each field by position, where a batch of objects would be parsed
// into records by name (about twice the work per row on the embedded database)
const BATCH_ROWS = `SELECT ${SPEND_COLUMNS.map((c) => `${field(c)} AS ${c}`).join(', ')} FROM jsonb_array_elements($1::jsonb) AS r`;

/** Who a row's cost is added to: the table, its id column, and the spend log's column naming it. */
const OWNERS = [
  ['svc_keys', 'key_hash', 'key_hash'],
  ['svc_users', 'user_id', 'user_id'],
  ['svc_teams', 'team_id', 'team_id'],
  ['svc_organizations', 'organization_id', 'organization_id'],
  ['svc_customers', 'user_id', 'end_user'],
] as const;

// Every writer locks the owner rows it will charge in one order (table by table, ids sorted) before
// charging them: two processes flushing batches that share keys or teams never deadlock. The ids come
// as one short list per owner kind (`ownerIds`), not the batch: the server would parse a batch's JSON
// twice, about 5 ms a batch of 1000 rows.
const LOCK_OWNERS = `SELECT ${OWNERS.map(
  ([table, id], i) =>
    `(SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${id} = ANY($${i + 1}::text[]) ORDER BY ${id} FOR UPDATE) l)`,
).join(',\n  ')}`;

const OWNER_POSITIONS = OWNERS.map(([, , log]) => SPEND_COLUMNS.indexOf(log));

/** The distinct ids each owner kind of `OWNERS` has in the batch's stored rows, in `OWNERS` order. */
function ownerIds(values: readonly unknown[][]): string[][] {
  return OWNER_POSITIONS.map((position) => {
    const ids = new Set<string>();
    for (const stored of values) {
      const id = stored[position];
      if (typeof id === 'string') ids.add(id);
    }
    return [...ids];
  });
}

// The embedded engine's batch arrives by COPY into this session's staging table (times as epoch ms,
// as in the JSON batch), emptied at each commit; the same statement then reads the rows from it.
const STAGE = 'svc_spend_stage';
const CREATE_STAGE = `CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (${SPEND_COLUMNS.map(
  (c) => `${c} ${COLUMN_TYPES[c] === 'timestamptz' ? 'double precision' : COLUMN_TYPES[c]}`,
).join(', ')}) ON COMMIT DELETE ROWS`;
const STAGE_TARGET = `${STAGE} (${COLUMNS})`;
const STAGED_ROWS = `SELECT ${SPEND_COLUMNS.map((c) =>
  COLUMN_TYPES[c] === 'timestamptz' ? `to_timestamp(${c} / 1000) AS ${c}` : c,
).join(', ')} FROM ${STAGE}`;

// Totals grow only by the rows this statement inserted: a batch retried after an ambiguous failure
// (committed, but the answer lost) inserts nothing and charges nothing again.
const writeBatchFrom = (rows: string) => `WITH inserted AS (
  INSERT INTO svc_spend_logs (${COLUMNS}) ${rows}
  ON CONFLICT (call_id) DO NOTHING
  RETURNING ${OWNERS.map(([, , log]) => log).join(', ')}, cost
),
${OWNERS.map(
  ([table, id, log]) => `charge_${table} AS (
  UPDATE ${table} AS t SET spend = t.spend + s.cost
  FROM (SELECT ${log}, sum(cost) AS cost FROM inserted WHERE ${log} IS NOT NULL GROUP BY ${log} HAVING sum(cost) <> 0) s
  WHERE t.${id} = s.${log}
)`,
).join(',\n')}
SELECT count(*) AS inserted FROM inserted`;
const WRITE_BATCH = writeBatchFrom(BATCH_ROWS);

/**
 * Writes spend log rows and charges their cost, in one transaction: each row is inserted unless its
 * `call_id` is already stored, and only the rows inserted add their cost to the spend of their key,
 * user, team, organization and customer (`end_user`) (ids with no stored row are not charged). Writing the same batch twice
 * is harmless.
 *
 * @example
 * await writeSpendBatch(db, [{ call_id, key_hash, cost: 0.0021, status: 'success', ... }]);
 * @returns how many rows were new.
 * @throws the database's error; then nothing of the batch is written.
 */
export async function writeSpendBatch(
  db: Database,
  rows: readonly SpendLogRow[],
): Promise<{ inserted: number }> {
  if (rows.length === 0) return { inserted: 0 };
  // one row per call: an INSERT cannot meet the same call_id twice (ON CONFLICT would fail on it)
  const seen = new Set<string>();
  const values: unknown[][] = [];
  for (const row of rows) {
    const stored = storedValues(row);
    if (seen.has(stored[0] as string)) continue;
    seen.add(stored[0] as string);
    values.push(stored);
  }
  if (db.engine === 'pglite' && db.copyIn !== undefined) {
    await preparedWrite(db);
    let text = '';
    for (const stored of values) text += copyTextLine(stored);
    // the embedded database runs one transaction at a time: no other writer to deadlock with
    return db.transaction(async (tx) => {
      await tx.copyIn!(STAGE_TARGET, text);
      const { rows: result } = await tx.query<{ inserted: number }>(`EXECUTE ${PREPARED_WRITE}`);
      return { inserted: result[0]?.inserted ?? 0 };
    });
  }
  const json = JSON.stringify(values);
  return db.transaction(async (tx) => {
    if (db.engine !== 'pglite') await tx.query(LOCK_OWNERS, ownerIds(values));
    const { rows: result } = await tx.query<{ inserted: number }>(WRITE_BATCH, [json]);
    return { inserted: result[0]?.inserted ?? 0 };
  });
}

const PREPARED_WRITE = 'svc_write_spend_staged';
const DUPLICATE_PREPARED_STATEMENT = '42P05';
/** Each embedded database's staging table and PREPARE of the staged write, done or under way. */
const prepared = new WeakMap<Database, Promise<unknown>>();

/**
 * Creates the staging table and prepares the write from it, once per embedded database, outside any
 * transaction (a failed attempt is tried again by the next batch). Planning this statement costs
 * PGlite about 1.3 ms, as much as 30 rows of the batch (bench/spend.ts), and batches written by time
 * are small. PGlite has one session for the life of the Database (a temporary table lives as long),
 * and Postgres plans a prepared statement again when a migration changes the table.
 *
 * A batch loaded by COPY costs the embedded engine about 15% less per row than the same rows sent as
 * one JSON array and unpacked by the statement (bench/spend.ts), and the staging table lets the write
 * skip rows already stored, which COPY straight into the log cannot.
 */
function preparedWrite(db: Database): Promise<unknown> {
  let done = prepared.get(db);
  if (done === undefined) {
    done = db
      .query(CREATE_STAGE)
      .then(() => db.query(`PREPARE ${PREPARED_WRITE} AS ${writeBatchFrom(STAGED_ROWS)}`))
      .catch((error: unknown) => {
        // another handle on the same session (a wrapper of this Database) prepared it already
        if ((error as { code?: unknown } | null)?.code === DUPLICATE_PREPARED_STATEMENT) return;
        prepared.delete(db);
        throw error;
      });
    prepared.set(db, done);
  }
  return done;
}

/** Which spend log rows to read. Every field narrows; times are inclusive. */
export interface SpendLogFilter {
  key_hash?: string | undefined;
  user_id?: string | undefined;
  team_id?: string | undefined;
  /** The model group called. */
  model?: string | undefined;
  /** Rows whose request carried this tag (among others). */
  tag?: string | undefined;
  /** Rows of calls started at or after this time. */
  start_date?: Date | undefined;
  /** Rows of calls started at or before this time. */
  end_date?: Date | undefined;
  /** At most this many rows (1 to 1000). @default 100 */
  limit?: number | undefined;
  /** Rows to skip first, for paging. @default 0 */
  offset?: number | undefined;
}

export const DEFAULT_SPEND_LOG_LIMIT = 100;
export const MAX_SPEND_LOG_LIMIT = 1000;

/** Spend log rows matching the filter, newest call first. */
export async function querySpendLogs(db: Queryable, filter: SpendLogFilter = {}): Promise<SpendLogRecord[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (filter.key_hash !== undefined) add('key_hash = ?', filter.key_hash);
  if (filter.user_id !== undefined) add('user_id = ?', filter.user_id);
  if (filter.team_id !== undefined) add('team_id = ?', filter.team_id);
  if (filter.model !== undefined) add('model_group = ?', filter.model);
  if (filter.tag !== undefined) add('? = ANY(tags)', filter.tag);
  if (filter.start_date !== undefined) add('start_time >= ?', filter.start_date);
  if (filter.end_date !== undefined) add('start_time <= ?', filter.end_date);
  const requested = Math.floor(filter.limit ?? DEFAULT_SPEND_LOG_LIMIT);
  const limit = Number.isFinite(requested)
    ? Math.min(MAX_SPEND_LOG_LIMIT, Math.max(1, requested))
    : DEFAULT_SPEND_LOG_LIMIT;
  params.push(limit, Math.max(0, Math.floor(filter.offset ?? 0)));
  const { rows } = await db.query<SpendLogRecord>(
    `SELECT ${COLUMNS} FROM svc_spend_logs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
ORDER BY start_time DESC, call_id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows;
}

/** What `GET /spend/report` groups each day's spend by. */
export type SpendReportGroup = 'team' | 'model' | 'tag';

/** One day's spend of one team, model group or tag. */
export interface SpendReportRow {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The team id, model group or tag; null for rows charged to no team, or of untagged calls. */
  group: string | null;
  spend: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Where each grouping reads its group: a call with two tags is one row under each tag. */
const GROUP_SOURCE: Record<SpendReportGroup, { column: string; from: string }> = {
  team: { column: 'team_id', from: 'svc_spend_logs' },
  model: { column: 'model_group', from: 'svc_spend_logs' },
  // an untagged call (tags NULL) joins one NULL tag: counted under the null group
  tag: { column: 't.tag', from: 'svc_spend_logs LEFT JOIN LATERAL unnest(tags) AS t(tag) ON true' },
};

/**
 * Spend per UTC day and team (or model group, or tag) of the calls started in [from, to), summed in the
 * database; sorted by day, then group. By tag, a call with several tags counts under each of them, so
 * the groups of a day may add up to more than its spend.
 */
export async function spendReport(
  db: Queryable,
  groupBy: SpendReportGroup,
  from: Date,
  to: Date,
): Promise<SpendReportRow[]> {
  const { column, from: source } = GROUP_SOURCE[groupBy];
  const { rows } = await db.query<Record<keyof SpendReportRow, unknown>>(
    `SELECT to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${column} AS "group",
  sum(cost) AS spend, count(*) AS requests, sum(prompt_tokens) AS prompt_tokens,
  sum(completion_tokens) AS completion_tokens
FROM ${source} WHERE start_time >= $1 AND start_time < $2
GROUP BY 1, 2 ORDER BY 1, 2 NULLS LAST`,
    [from, to],
  );
  return rows.map((r) => ({
    day: String(r.day),
    group: r.group === null ? null : String(r.group),
    spend: Number(r.spend),
    requests: Number(r.requests),
    prompt_tokens: Number(r.prompt_tokens),
    completion_tokens: Number(r.completion_tokens),
  }));
}
