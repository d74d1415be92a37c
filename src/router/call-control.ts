import type { CallSignal } from '../shared/call-signal.js';
import type {
  ChatCompletion,
  ChatCompletionRequest,
  ProviderName,
  Usage,
  WithHiddenParams,
} from '../types/index.js';
import type { ChatCompletionStream } from './chat-stream.js';

/** Per-call controls that are not part of the request body. */
export interface CallControl {
  /**
   * Aborts the call; the abort reason is thrown as is and counts against no deployment. An
   * AbortSignal, or any object with its `aborted`, `reason` and abort listeners ({@link CallSignal}).
   */
  signal?: CallSignal;
  /**
   * Only deployments with a price (their own, `model_cost_map`'s or the catalog's), or with
   * `model_info.allow_unpriced: true`, may serve this call: the others are skipped, and a group left
   * with none fails with BadRequestError code `model_unpriced` (400). For calls charged to a budget,
   * whose cost must be counted; the proxy sets it for them. Costs nothing when every deployment is priced.
   * @default false
   */
  pricedOnly?: boolean;
  /**
   * Which models this call may reach, for a server that lets each caller use only some of them (the
   * proxy passes the caller's key, team and token model lists). Asked with the requested model, and with
   * each model a fallback would move the call to (the request's `fallbacks`, `fallbacks`,
   * `default_fallbacks`, `context_window_fallbacks`, `content_policy_fallbacks`), as written there: a
   * `pass_through_all_models` target as its `<provider>/<model>` name. A requested model it refuses fails
   * the call at once with PermissionDeniedError (403), before any upstream call; a fallback it refuses
   * is skipped like one that names no group (no hop, no `fallback` event), and when nothing allowed is
   * left the call fails with the error that sent it to its fallbacks. Called on the call path: keep it
   * synchronous and cheap (a `Set` lookup).
   * @default undefined (every model may be reached; nothing is asked)
   * @example
   * const allowed = new Set(['gpt-4o-mini', 'claude-haiku']);
   * await router.acompletion(request, { allowModel: (model) => allowed.has(model) });
   */
  allowModel?: (model: string) => boolean;
  /**
   * Told of each upstream attempt that was under way when `signal` aborted (the abort reason is
   * thrown as is, and names no deployment): for a server that charges a call its client left, since
   * the provider had the prompt by then. Not told of an attempt that had already produced its result
   * (a stream is the caller's once opened), nor of a hedge's losing attempt, nor of one begun after
   * the abort (which sent nothing). Called synchronously as
   * the attempt ends; a throw is ignored.
   * @example
   * const under = [];
   * await router.acompletion(request, { signal, onAbortedAttempt: (a) => under.push(a) });
   * // on abort: under[0].costOf({ prompt_tokens: 1200, completion_tokens: 0 })
   */
  onAbortedAttempt?: (attempt: AbortedAttempt) => void;
}

/** An upstream attempt under way when its call's signal aborted ({@link CallControl.onAbortedAttempt}). */
export interface AbortedAttempt {
  /** The deployment's id (`model_info.id`). */
  model_id: string;
  /** Its model group. */
  model_group: string;
  provider: ProviderName;
  /** Whether it has a price (its own, `model_cost_map`'s or the catalog's); else `costOf` is 0. */
  priced: boolean;
  /** What `usage` costs at this deployment's prices, in USD. */
  costOf(usage: Partial<Usage>): number;
}

/**
 * The result type of a chat call: a stream when `stream: true`, a completion when `stream` is false or
 * not set (so a request typed `ChatCompletionRequest` gets a completion), either when it is a `boolean`.
 */
export type ChatResult<R extends ChatCompletionRequest> = R extends { stream: true }
  ? ChatCompletionStream
  : R extends { stream: false }
    ? WithHiddenParams<ChatCompletion>
    : R extends { stream: boolean }
      ? WithHiddenParams<ChatCompletion> | ChatCompletionStream
      : WithHiddenParams<ChatCompletion>;
