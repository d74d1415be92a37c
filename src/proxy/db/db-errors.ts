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

/** The database could not be reached or refused the connection. Answer 503. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  readonly status = 503;
  readonly code = 'database_unavailable';
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
