import { responseCost } from '../cost/response-cost.js';
import type { CallSignal } from '../shared/call-signal.js';
import type { HiddenParams, Usage, WithHiddenParams } from '../types/index.js';
import type { Routed } from './call.js';
import { ChatCompletionStream } from './chat-stream.js';
import type { OpenedStream } from './executor.js';
import { withHiddenParams } from './hidden-params.js';
import type { RouterRuntime } from './runtime.js';

export function hiddenParams<T>(routed: Routed<T>, cost: number): HiddenParams {
  const { endpoint } = routed;
  return {
    model_id: endpoint.deployment.id,
    model_group: endpoint.deployment.modelName,
    api_base: endpoint.target.apiBase ?? null,
    custom_llm_provider: endpoint.deployment.provider,
    response_cost: cost,
    priced: routed.cacheHit === true || endpoint.deployment.cost.priced,
    cache_hit: routed.cacheHit === true,
    attempts: routed.attempts,
  };
}

/** A finished answer with its `_hidden_params`; settles its attempt as a success. */
export function completedResult<T extends object>(
  routed: Routed<T>,
  usage: Partial<Usage> | undefined,
): WithHiddenParams<T> {
  const cost = routed.cacheHit ? 0 : responseCost(routed.endpoint.deployment, usage);
  const result = withHiddenParams(routed.result, hiddenParams(routed, cost));
  routed.settle({ usage, response: result, cost });
  return result;
}

/**
 * Wraps an opened stream. Its attempt settles when the stream ends, fails, or the caller stops; a
 * stream the caller drops without reading settles when a deadline closes its upstream body, or when it
 * is garbage-collected, whichever comes first; so does one the caller stops reading for
 * `stream_timeout` (its reader, when it comes back, gets the TimeoutError). A caller's abort or pause
 * never counts against the deployment.
 */
export function streamResult(
  routed: Routed<OpenedStream>,
  signal: CallSignal | undefined,
  runtime: RouterRuntime,
): ChatCompletionStream {
  // the closures below outlive the stream's first chunk: they hold what they use of `routed`, not
  // `routed` itself, whose result holds that chunk for as long as the stream is read
  const { endpoint, cacheHit } = routed;
  const settle = routed.settle;
  const opened = routed.result;
  const costOf = (usage: Partial<Usage> | undefined) =>
    cacheHit ? 0 : responseCost(endpoint.deployment, usage);
  const reading: Reading = { started: false };
  const stream: ChatCompletionStream = new ChatCompletionStream(
    opened,
    {
      costOf,
      onStart: () => {
        reading.started = true;
      },
      onEnd: (usage) => {
        const cost = costOf(usage);
        stream._hidden_params.response_cost = cost;
        settle({ usage, cost, response: null });
      },
      onError: (error) => settle(signal?.aborted ? { aborted: true } : { error }),
      onClose: () => {
        runtime.unwatch(reading);
        settle({ aborted: true });
      },
    },
    hiddenParams(routed, 0),
  );
  settleWhenDropped(stream, reading, opened, settle, runtime);
  return stream;
}

/** Whether the caller has started reading a stream: `RouterRuntime.watch`'s token for it. */
interface Reading {
  started: boolean;
}

/**
 * Settles a stream's attempt when its caller drops it unread: when it is collected, or when a deadline
 * closes its body. Apart so that none of these closures holds the stream: the body's deadline timer
 * reaches the `onClose` listener and the registry holds `release`, and either holding the stream would
 * keep it from ever being collected.
 */
function settleWhenDropped(
  stream: ChatCompletionStream,
  reading: Reading,
  opened: OpenedStream,
  settle: Routed<OpenedStream>['settle'],
  runtime: RouterRuntime,
): void {
  const rest = opened.rest;
  runtime.watch(stream, reading, () => {
    rest.return?.();
    settle({ aborted: true });
  });
  opened.onClose((unread) => {
    // a reader who is waiting sees the end or the failure itself; one who stopped reading does not
    if (reading.started && !unread) return;
    runtime.unwatch(reading);
    settle({ aborted: true });
  });
}
