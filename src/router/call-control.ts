import type { CallSignal } from '../shared/call-signal.js';
import type { ChatCompletion, ChatCompletionRequest, WithHiddenParams } from '../types/index.js';
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
