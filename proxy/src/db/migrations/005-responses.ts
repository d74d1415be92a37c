import type { Migration } from '../migrate.js';

// Stored Responses API answers (`store: true`): what `GET /v1/responses/{id}` returns and what
// `previous_response_id` continues. `input` holds the conversation's items up to this response (those
// of the responses it continued included), so a continuation reads one row, never a chain. The owner
// columns are whom the call was charged to: only that key (or, for a token without a key, that user or
// team) and admins may read or continue it.
export const responses: Migration = {
  name: '005-responses',
  statements: [
    `CREATE TABLE svc_responses (
  response_id text PRIMARY KEY,
  key_hash text,
  user_id text,
  team_id text,
  model text NOT NULL,
  input jsonb NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  ],
};
