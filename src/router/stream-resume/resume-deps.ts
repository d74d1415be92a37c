import type { CallSignal } from '../../shared/call-signal.js';
import type { ChatCompletionRequest } from '../../types/index.js';
import { type Call, type CallPath, type Routed, withAttempts } from '../call.js';
import { streamResult } from '../call-results.js';
import type { OpenedStream } from '../executor.js';
import type { FallbackEvent } from '../router-events.js';
import type { RouterRuntime } from '../runtime.js';
import { supportsPrefill } from './continuation-request.js';
import type { ResumeDeps } from './resumable-stream.js';

/** The router's parts a continuation is routed with. */
export interface ContinuationRouting {
  /** A new streaming call for `request` under the config in force. */
  start(request: ChatCompletionRequest): Call<OpenedStream>;
  /** The call path of the config in force. */
  handler(): CallPath;
  emit(event: FallbackEvent): void;
}

/**
 * What `resumableStream` needs, from the router's parts: a continuation is a new call through the
 * router's call path (retries, tiers, fallbacks), marked `resumed` and limited to the endpoints the
 * stream may continue on.
 */
export function resumeDeps(
  maxResumes: number,
  runtime: RouterRuntime,
  signal: CallSignal | undefined,
  routing: ContinuationRouting,
): ResumeDeps {
  return {
    maxResumes,
    prefill: (endpoint) => supportsPrefill(endpoint.deployment),
    open: async (request, eligible) => {
      const call: Call<OpenedStream> = { ...routing.start(request), eligible, resumed: true };
      let routed: Routed<OpenedStream>;
      try {
        routed = await routing.handler()(call);
      } catch (err) {
        throw withAttempts(call, err);
      }
      return { stream: streamResult(routed, signal, runtime), endpoint: routed.endpoint };
    },
    resumed: (from, to, error) => routing.emit({ from, to, error, resumed: true }),
  };
}
