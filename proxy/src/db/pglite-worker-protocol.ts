/**
 * The messages between the proxy's thread and the thread running PGlite (pglite-worker.ts), and how a
 * driver error crosses between them. Structured cloning keeps rows as the engine gives them (Date,
 * number, Uint8Array, parsed JSON) but drops an Error's own fields, so errors travel as plain objects.
 */

/** A request to the worker; `id` names its reply. */
export type WorkerRequest =
  | {
      op: 'query';
      id: number;
      sql: string;
      params: readonly unknown[] | undefined;
      /** The transaction (its `begin` id) the statement belongs to; absent: on its own. */
      tx: number | undefined;
    }
  /** `Queryable.copyIn`: loads `text` into `target`. */
  | { op: 'copy'; id: number; target: string; text: string; tx: number | undefined }
  /** Opens a transaction; its id is this request's id. Replied to once BEGIN ran. */
  | { op: 'begin'; id: number }
  /** Ends transaction `tx`: COMMIT, or ROLLBACK when `commit` is false. */
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'close'; id: number };

/** A driver error as plain data: its message, name and Postgres fields (`code`, `detail`...). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, string | number>;
}

/** What the worker sends: a reply to a request, or once at start whether the engine opened. */
export type WorkerReply =
  | { id: number; rows: object[] }
  | { id: number; done: true }
  | { id: number; error: SerializedError }
  | { ready: true }
  | { failed: SerializedError };

// pg-protocol's DatabaseError fields (what db-errors.ts and callers read); the statement's parameters
// (`params`) stay behind, they may hold secrets' hashes and never help to explain the error
const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

/** `error` as plain data that survives `postMessage`. */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  const source = error as unknown as Record<string, unknown>;
  for (const field of ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || typeof value === 'number') fields[field] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** The Error a SerializedError stands for, with the same name, message and fields. */
export function deserializeError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  Object.assign(error, serialized.fields);
  if (serialized.name !== 'Error') {
    // an own property, as on the driver's error, without changing the prototype
    Object.defineProperty(error, 'name', { value: serialized.name, configurable: true, writable: true });
  }
  return error;
}
