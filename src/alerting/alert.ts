import type { RouterError } from '../errors/router-error.js';

/** What an alert is about: a call slower than `alerting_threshold`, or a call that failed. */
export type AlertType = 'slow_response' | 'llm_exception';

/** One failed attempt of a call, as alerts and logger callbacks list it. */
export interface FailedAttempt {
  /** The deployment that failed, when the error names one. */
  model_id: string | null;
  /** The error class (`RateLimitError`, `TimeoutError`, ...). */
  error: string;
  status: number;
  /** The error message (secrets already removed), at most 300 characters. */
  message: string;
}

/**
 * The `alert` event (CONTRACT 2.6): one per slow call and one per failed call (after its retries and
 * fallbacks), whatever the number of attempts. Emitted when the alert is raised; the webhook gets the
 * same alert as one `text` line at the next flush.
 */
export interface AlertEvent {
  type: AlertType;
  /** The model the caller asked for. */
  model: string;
  /** The group that served or failed last (differs from `model` after a fallback). */
  model_group: string;
  /** The deployment that served or failed last; null when none was reached (all cooling). */
  model_id: string | null;
  /**
   * How long the caller waited, from the call's start: for a completion, until its result; for a
   * stream, until its first chunk (`slow_response`) or until it failed (`llm_exception`).
   */
  duration_ms: number;
  stream: boolean;
  /** `slow_response`: the `alerting_threshold` crossed, in ms. */
  threshold_ms?: number;
  /** `llm_exception`: the error the caller got. */
  error?: RouterError;
  /** Upstream attempts the call made. */
  attempts: number;
  /** Every failed attempt of the call, oldest first. */
  failed_attempts: FailedAttempt[];
  /** When the alert was raised (ms since the epoch, on the router's clock). */
  time: number;
  /** The line the webhook receives for this alert. */
  text: string;
}

/** `alerting_config` as validated (CONTRACT 2.2, 5.5). Times are seconds. */
export interface AlertingSettings {
  /** A call slower than this raises `slow_response`. @default 300 */
  alerting_threshold?: number | undefined;
  /** Where alerts are POSTed as `{ "text": ... }`; without it, alerts are `alert` events only. */
  webhook_url?: string | undefined;
  /** How often buffered alerts are sent. @default 5 */
  flush_interval?: number | undefined;
}

/** `alerting_threshold` when not set, as LiteLLM's: five minutes. */
export const DEFAULT_ALERTING_THRESHOLD_S = 300;
/** `flush_interval` when not set (CONTRACT 5.5). */
export const DEFAULT_FLUSH_INTERVAL_S = 5;
