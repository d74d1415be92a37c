import type { FailedAttempt } from '../alerting/alert.js';
import type { ProviderName, Usage } from '../types/index.js';

/** The `svc_params` a callback sees: the key masked to its last 4 characters. */
export interface LoggedSvcParams {
  model: string;
  api_key: string | null;
  api_base: string | null;
  custom_llm_provider: ProviderName;
}

/** The first argument of every logger callback. */
export interface CallbackKwargs {
  /** The model the caller asked for. */
  model: string;
  /** The model group that served or failed (differs from `model` after a fallback). */
  model_group: string;
  model_id: string;
  svc_params: LoggedSvcParams;
  response_cost: number;
  messages?: unknown;
  input?: unknown;
  metadata: Record<string, unknown>;
  stream: boolean;
  /** The answer came from the response cache (no provider was called). */
  cache_hit: boolean;
  /** The usage the provider reported (for streams: the final usage, as the stream ended); null when none. */
  usage: Partial<Usage> | null;
  /** When this attempt started (the same instant as the `startTime` argument). */
  start_time: Date;
  /** When it ended (for streams: when the stream ended). */
  end_time: Date;
  /** When its result arrived, for streams its first chunk (time to first token); null when it failed before. */
  completion_start_time: Date | null;
  /** Upstream attempts of the call so far, this one included. */
  attempts: number;
  /** The call's failed attempts so far, oldest first (for a failure, this one is the last). */
  failed_attempts: FailedAttempt[];
  /** For failures: the error of this attempt. */
  exception?: Error;
}

/**
 * A logging callback (CONTRACT 2.6). Either method may be sync or async; both are optional. They run
 * after the call's result is settled and never delay or fail it: a throw or rejection is reported on
 * the router's `callback_error` event and otherwise ignored.
 */
export interface LoggerCallback {
  logSuccessEvent?(kwargs: CallbackKwargs, responseObj: unknown, startTime: Date, endTime: Date): unknown;
  logFailureEvent?(kwargs: CallbackKwargs, responseObj: unknown, startTime: Date, endTime: Date): unknown;
}
