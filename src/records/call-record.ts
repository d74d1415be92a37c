/**
 * One call's record, as destinations receive it (CONTRACT 6.8): who called, what was served, what it
 * cost and how long it took. Never a secret: no provider key, no virtual key (only its hash), no
 * message content. The proxy's records are its spend rows (with every field the row has) plus the
 * fields only the request knew; the Router's are built from what it knows at the end of a call.
 * Times are `Date`s until sent (JSON gives ISO 8601 strings); durations are milliseconds.
 */
export interface CallRecord {
  /** Unique per call (the proxy's `x-svc-call-id`). */
  call_id: string;
  /** `gen_ai.operation.name` of the call: `chat`, `embeddings`, `text_completion`, `image_generation`. */
  operation?: string | undefined;
  /** The model the caller asked for. */
  model?: string | null | undefined;
  /** The model group that served (differs from `model` after a fallback). */
  model_group?: string | null | undefined;
  /** The deployment that served (or last failed). */
  model_id?: string | null | undefined;
  provider?: string | null | undefined;
  status: 'success' | 'failure';
  /** The error's stable code for a failure (`rate_limit_exceeded`, `client_closed`, ...). */
  error_code?: string | null | undefined;
  http_status?: number | null | undefined;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Dollars. */
  cost: number;
  cache_hit: boolean;
  stream: boolean;
  start_time: Date | string;
  end_time: Date | string;
  /** From the call's start to its end (for streams: the stream's end). */
  latency_ms?: number | null | undefined;
  /** Streams: from the call's start to its first chunk; null otherwise. */
  time_to_first_token_ms?: number | null | undefined;
  /** Proxy: the hash of the virtual key (never the key) and the key's alias. */
  key_hash?: string | null | undefined;
  key_alias?: string | null | undefined;
  user_id?: string | null | undefined;
  team_id?: string | null | undefined;
  organization_id?: string | null | undefined;
  /** The caller's end user (the request's `user`, or a JWT's end-user claim). */
  end_user?: string | null | undefined;
  /** W3C trace id of the call's trace, when it was traced: an `otlp` span joins that trace. */
  trace_id?: string | null | undefined;
  /** The request's tags (`metadata.tags`; at the proxy, header `x-svc-tags` too); null when untagged. */
  tags?: readonly string[] | null | undefined;
  /** Any other field of the producer's (a spend row's newer columns): passed on as it is. */
  [field: string]: unknown;
}
