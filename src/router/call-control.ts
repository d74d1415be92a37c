import type { ChatCompletion, ChatCompletionRequest, WithHiddenParams } from '../types/index.js';
import type { ChatCompletionStream } from './chat-stream.js';

/** Per-call controls that are not part of the request body. */
export interface CallControl {
  /** Aborts the call; the abort reason is thrown as is and counts against no deployment. */
  signal?: AbortSignal;
  /**
   * Only deployments with a price (their own, `model_cost_map`'s or the catalog's), or with
   * `model_info.allow_unpriced: true`, may serve this call: the others are skipped, and a group left
   * with none fails with BadRequestError code `model_unpriced` (400). For calls charged to a budget,
   * whose cost must be counted; the proxy sets it for them. Costs nothing when every deployment is priced.
   * @default false
   */
  pricedOnly?: boolean;
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
