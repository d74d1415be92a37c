/** One call as the spend log records it (a row of `svc_spend_logs`). */
export interface SpendEntry {
  call_id: string;
  /** The caller's key hash; null for the master key. */
  key_hash: string | null;
  user_id: string | null;
  team_id: string | null;
  organization_id: string | null;
  /** The request's `user` field: the caller's own end user. */
  end_user: string | null;
  model_group: string;
  model_id: string | null;
  provider: string | null;
  route: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Dollars. */
  cost: number;
  status: 'success' | 'failure';
  error_code: string | null;
  http_status: number;
  latency_ms: number;
  cache_hit: boolean;
  stream: boolean;
  start_time: Date;
  end_time: Date;
}

/** Where finished calls go: the batched spend writer. Must not block or throw. */
export type SpendSink = (entry: SpendEntry) => void;
