import type { InputItem, ResponseObject } from '@svc/router/responses';
import type { Queryable } from './database.js';

/** Whom a stored response belongs to: the key, user and team its call was charged to (null: none). */
export interface ResponseOwner {
  key_hash: string | null;
  user_id: string | null;
  team_id: string | null;
}

/** A response to store (`store: true`). */
export interface NewStoredResponse extends ResponseOwner {
  response_id: string;
  /** The model group the caller asked for. */
  model: string;
  /** The conversation's items up to this response: the continued responses' items, then this input. */
  input: readonly InputItem[];
  response: ResponseObject;
}

/** A stored response, as read back. */
export interface StoredResponse extends NewStoredResponse {
  created_at: Date;
}

const COLUMNS = 'response_id, key_hash, user_id, team_id, model, input, response, created_at';

/** Stores a response (its id is new: a second insert of one id fails with the database's error). */
export async function insertResponse(db: Queryable, row: NewStoredResponse): Promise<void> {
  await db.query(
    `INSERT INTO svc_responses (response_id, key_hash, user_id, team_id, model, input, response)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      row.response_id,
      row.key_hash,
      row.user_id,
      row.team_id,
      row.model,
      JSON.stringify(row.input),
      JSON.stringify(row.response),
    ],
  );
}

/** The stored response with this id, or undefined. */
export async function getStoredResponse(
  db: Queryable,
  responseId: string,
): Promise<StoredResponse | undefined> {
  const { rows } = await db.query<StoredResponse>(
    `SELECT ${COLUMNS} FROM svc_responses WHERE response_id = $1`,
    [responseId],
  );
  return rows[0];
}

/** Deletes the stored response with this id; true when there was one. */
export async function deleteStoredResponse(db: Queryable, responseId: string): Promise<boolean> {
  const { rows } = await db.query<{ response_id: string }>(
    'DELETE FROM svc_responses WHERE response_id = $1 RETURNING response_id',
    [responseId],
  );
  return rows.length > 0;
}
