import type { AlertEvent, FailedAttempt } from '../alerting/alert.js';
import type { CooldownEvent } from '../cooldown/cooldown-tracker.js';
import type { RouterError } from '../errors/router-error.js';
import type { CallWarning } from '../providers/shared/provider-adapter.js';
import type { ProviderName, Usage } from '../types/index.js';

/** Emitted once per successful call (for streams: when the stream ends). */
export interface SuccessEvent {
  model: string;
  model_group: string;
  model_id: string;
  provider: ProviderName;
  latency_ms: number;
  response_cost: number;
  /** Upstream calls made for this request, 1 when the first served. */
  attempts: number;
  stream: boolean;
  /** The usage the provider reported (for streams: the final usage); null when none. */
  usage: Partial<Usage> | null;
  /** Answered from the response cache (no upstream call, `attempts` 0). */
  cache_hit: boolean;
  /** For streams: milliseconds from the attempt's start to its first chunk; null otherwise. */
  time_to_first_token_ms: number | null;
}

/** Emitted once per failed attempt (a request that is then retried elsewhere emits one per failure). */
export interface FailureEvent {
  model: string;
  model_group: string;
  model_id: string;
  provider: ProviderName;
  latency_ms: number;
  error: RouterError;
  stream: boolean;
}

/** A logger callback or event listener threw or rejected; the call it observed was not affected. */
export interface CallbackErrorEvent {
  source: 'success' | 'failure' | 'logSuccessEvent' | 'logFailureEvent';
  error: unknown;
}

/** A call moved from one model group to a fallback group. */
export interface FallbackEvent {
  from: string;
  to: string;
  /** The error that made it move. */
  error: RouterError;
  /**
   * A broken stream was continued (`stream_resume`): `to` is the group whose deployment carries on
   * with the text already sent. One event per continuation.
   */
  resumed?: true;
}

export type { AlertEvent, CooldownEvent, FailedAttempt };

/** Something a call skipped without failing (a malformed stream event); the call went on. */
export type WarningEvent = CallWarning;

/**
 * The shared store (Redis) failed or stopped answering in time: emitted once per outage, at its first
 * failure. Calls go on with this router's own state (cooldowns it saw itself) until the store answers
 * again; its recovery is logged. The error never holds a password.
 */
export interface RouterErrorEvent {
  source: 'store';
  error: unknown;
}

/** The router's events (`router.on(name, listener)`). Listeners that throw never affect a call. */
export interface RouterEvents {
  success: (event: SuccessEvent) => void;
  failure: (event: FailureEvent) => void;
  cooldown: (event: CooldownEvent) => void;
  fallback: (event: FallbackEvent) => void;
  callback_error: (event: CallbackErrorEvent) => void;
  warning: (event: WarningEvent) => void;
  error: (event: RouterErrorEvent) => void;
  /** A slow call or a failed call, with `alerting_config` set (CONTRACT 2.6, 5.5). */
  alert: (event: AlertEvent) => void;
}
