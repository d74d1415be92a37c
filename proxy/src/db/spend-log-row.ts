/** One call's spend log row, as the proxy writes it (and `querySpendLogs` reads it back). */
export interface SpendLogRow {
  /** Unique per call; a row written twice (a retried batch) is stored and counted once. */
  call_id: string;
  /** The hash of the virtual key the call used (never the key). */
  key_hash?: string | null | undefined;
  user_id?: string | null | undefined;
  team_id?: string | null | undefined;
  organization_id?: string | null | undefined;
  /** The caller's end user (the request's `user`, or the JWT's end-user claim). */
  end_user?: string | null | undefined;
  model_group?: string | null | undefined;
  /** The deployment that answered. */
  model_id?: string | null | undefined;
  provider?: string | null | undefined;
  /** The proxy route, e.g. `/v1/chat/completions`. */
  route?: string | null | undefined;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Dollars; added to the key's, user's, team's and organization's spend. */
  cost: number;
  status: 'success' | 'failure';
  error_code?: string | null | undefined;
  http_status?: number | null | undefined;
  latency_ms?: number | null | undefined;
  cache_hit: boolean;
  stream: boolean;
  start_time: Date;
  end_time: Date;
  /** The W3C trace id of a traced call (several calls may share one); null when untraced. */
  trace_id?: string | null | undefined;
  /**
   * The tokens are the proxy's count, not the upstream's: the answer ended (cut, or left by its client)
   * before the upstream reported its usage, and is charged for the prompt and the text delivered.
   */
  usage_estimated?: boolean | undefined;
  /**
   * False when the serving deployment has no price: `cost` is 0 because it is unknown. Stored true
   * unless false; rows written before this field are null.
   */
  priced?: boolean | null | undefined;
  /** The request's tags (`metadata.tags`, header `x-svc-tags`); null when it had none. */
  tags?: readonly string[] | null | undefined;
}

/** A stored spend log row. Unset fields are null. */
export type SpendLogRecord = {
  [K in keyof SpendLogRow]-?: undefined extends SpendLogRow[K]
    ? Exclude<SpendLogRow[K], undefined>
    : SpendLogRow[K];
};

/** Columns of `svc_spend_logs`, in one order for every statement. */
export const SPEND_COLUMNS = [
  'call_id',
  'key_hash',
  'user_id',
  'team_id',
  'organization_id',
  'end_user',
  'model_group',
  'model_id',
  'provider',
  'route',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cost',
  'status',
  'error_code',
  'http_status',
  'latency_ms',
  'cache_hit',
  'stream',
  'start_time',
  'end_time',
  'trace_id',
  'usage_estimated',
  'priced',
  'tags',
] as const satisfies readonly (keyof SpendLogRow)[];

const MAX_INT = 2_147_483_647;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// what text needs a second look for: a NUL, or any surrogate (a pair is fine; the repair tells)
const SUSPECT = /[\0\uD800-\uDFFF]/;

/**
 * The longest end user and requested model a row stores; longer ones keep their start. Both are caller
 * input of any length (the request's `user` and `model`): a batch of rows holding megabytes each would
 * pass what Postgres takes in one statement (256 MB of jsonb) and fail whole, again and again, holding
 * back every row behind it. Longer than a customer's id may be (`MAX_OWNER_ID_LENGTH`). Owner ids are
 * not cut: a JWT's user or team may have a longer one, and a cut id would charge no one.
 */
export const MAX_STORED_TEXT_LENGTH = 1024;

/** A copy of `value` sharing no memory with it (lone surrogates become U+FFFD, as `text` repairs them). */
export function ownCopy(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

/**
 * `value`'s first `MAX_STORED_TEXT_LENGTH` characters, as a copy: V8 makes a slice of a string point
 * into it, so a row keeping a slice of a megabyte `user` would keep all of it while it waits to be
 * written (longer during a database outage). For the caller's text as a row is made.
 */
export function cutText(value: string): string {
  return value.length <= MAX_STORED_TEXT_LENGTH ? value : ownCopy(value.slice(0, MAX_STORED_TEXT_LENGTH));
}

// text Postgres cannot store (NUL, half a surrogate pair: an end user's name is caller input) is
// repaired, after the cut (which may halve a pair); the common text, with neither, is taken as it is
// (11 fields a row: 0.15 µs a row instead of the two replaces' 0.4)
const text = (value: string | null | undefined): string | null => {
  if (value == null) return null;
  const s = String(value);
  return SUSPECT.test(s) ? s.replaceAll('\0', '').replace(LONE_SURROGATE, '\uFFFD') : s;
};

const cut = (value: string | null | undefined): string | null | undefined =>
  value == null ? value : cutText(String(value));

/**
 * The end user a row stores for the request's `user`: its first `MAX_STORED_TEXT_LENGTH` characters,
 * NULs removed, half surrogate pairs repaired. The call is admitted under this same id (the customer's
 * budget and block), so the customer refused or let through is the one the row charges.
 */
export function storedEndUser(user: string): string {
  return text(cutText(user)) ?? '';
}

const count = (value: number): number =>
  Number.isFinite(value) ? Math.min(MAX_INT, Math.max(0, Math.round(value))) : 0;

const finiteOrNull = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

const isValidDate = (value: unknown): value is Date =>
  value instanceof Date && Number.isFinite(value.getTime());

// the proxy bounds tags at the request (request-tags.ts); a row is bounded again here, so that no
// caller of the writer can make a batch fail
const MAX_STORED_TAGS = 64;
const MAX_STORED_TAG_LENGTH = 256;

const tagsOf = (tags: readonly string[] | null | undefined): string[] | null => {
  if (!Array.isArray(tags) || tags.length === 0) return null;
  return tags.slice(0, MAX_STORED_TAGS).map((tag) => text(String(tag).slice(0, MAX_STORED_TAG_LENGTH)) ?? '');
};

/**
 * The row as JSON-ready values every column accepts, in `SPEND_COLUMNS` order (an array: a batch sent
 * as arrays is half the bytes of one sent as objects, and the database reads each field by position).
 * Whatever a caller passes, a row can never make a batch fail (which would hold back every row behind
 * it): counts are rounded and clamped, a cost that is not a finite number is 0, an unknown status is
 * `failure`, an invalid time is replaced by the other one (or now), the end user and the model keep
 * their first `MAX_STORED_TEXT_LENGTH` characters. Times are epoch milliseconds.
 */
export function storedValues(row: SpendLogRow): unknown[] {
  const start = isValidDate(row.start_time) ? row.start_time : undefined;
  const end = isValidDate(row.end_time) ? row.end_time : undefined;
  const fallback = start ?? end ?? new Date();
  const httpStatus = finiteOrNull(row.http_status);
  return [
    text(row.call_id) ?? '',
    text(row.key_hash),
    text(row.user_id),
    text(row.team_id),
    text(row.organization_id),
    text(cut(row.end_user)),
    text(cut(row.model_group)),
    text(row.model_id),
    text(row.provider),
    text(row.route),
    count(row.prompt_tokens),
    count(row.completion_tokens),
    count(row.total_tokens),
    Number.isFinite(row.cost) ? row.cost : 0,
    row.status === 'success' ? 'success' : 'failure',
    text(row.error_code),
    httpStatus === null ? null : count(httpStatus),
    finiteOrNull(row.latency_ms),
    row.cache_hit === true,
    row.stream === true,
    (start ?? fallback).getTime(),
    (end ?? fallback).getTime(),
    text(row.trace_id),
    row.usage_estimated === true,
    row.priced !== false,
    tagsOf(row.tags),
  ];
}
