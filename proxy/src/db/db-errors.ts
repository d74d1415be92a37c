/**
 * What the database layer throws besides driver errors: a unique value taken (409) and a database that
 * cannot be reached (503). Messages name the field or the host, never a value sent or a password.
 */

/** A row with this unique value already exists (a key alias, a team alias...). Answer 409. */
export class DuplicateError extends Error {
  override readonly name = 'DuplicateError';
  readonly status = 409;
  readonly code = 'duplicate';

  constructor(
    /** The column whose value is taken, e.g. `key_alias`. */
    readonly field: string,
    /** What was being created, e.g. `key`. */
    readonly entity: string,
  ) {
    super(`A ${entity} with this ${field} already exists`);
  }
}

/**
 * The database could not be reached, lost the connection, or cannot serve now (shutting down, out of
 * connections, a statement timed out). Answer 503. The message names the host for the operator (never
 * the password); callers are told only that the database is not answering.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  readonly status = 503;
  readonly code = 'database_unavailable';
}

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** node-postgres' own errors for a lost, closed or timed-out connection: they carry no code. */
const DRIVER_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/;

/**
 * SQLSTATEs of a server that cannot serve the statement now, whatever it was: connection exceptions
 * (class 08), insufficient resources (53: too many connections, disk full, out of memory), shutting
 * down or starting up (57P01..57P04), and a statement cancelled by `statement_timeout` (57014).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('57P0') || code === '57014';
}

/**
 * Whether a query failed because the database is unreachable or cannot serve now, rather than because
 * of the statement or its values: those answer 503 `database_unavailable`, the others are bugs (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    // a SQLSTATE is five characters; other codes (ERR_..., E...) say nothing about the server
    if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableState(code)) return true;
  }
  return DRIVER_CONNECTION_MESSAGE.test(error.message);
}

/** Postgres' SQLSTATE for unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * The DuplicateError a driver's unique violation stands for (the column read from the error's
 * `detail`, `Key (key_alias)=(...)`), or undefined for any other error.
 */
export function asDuplicateError(error: unknown, entity: string): DuplicateError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  if (code !== UNIQUE_VIOLATION) return undefined;
  const column = typeof detail === 'string' ? /^Key \(([^)]+)\)/.exec(detail)?.[1] : undefined;
  return new DuplicateError(column ?? 'unique value', entity);
}
