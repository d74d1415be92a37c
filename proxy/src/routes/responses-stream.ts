import type { ResponseObject, ResponseStreamEvent, ResponsesStreamWriter } from '@svc/router/responses';
import { errorReply } from '../http/proxy-error.js';
import { sseEvent } from '../http/sse.js';
import type { StreamFormat } from './send-stream.js';

/** The frames of some events, as one write: one per chunk, not one per event. */
function framesOf(events: readonly ResponseStreamEvent[]): string {
  let out = '';
  for (const event of events) out += sseEvent(event.type, event);
  return out;
}

/**
 * The Responses event stream: named events (`event: response.output_text.delta`), no `[DONE]`; a
 * stream that fails after its first byte ends with `response.failed` carrying the proxy's error code
 * and message. `beforeEnd` runs before the terminal event is sent (storing the response), so a client
 * that reads `response.completed` can already continue from it.
 */
export function responsesStreamFormat(
  writer: ResponsesStreamWriter,
  beforeEnd: (response: ResponseObject) => Promise<void>,
): StreamFormat {
  return {
    frame: (chunk) => framesOf(writer.push(chunk)),
    end: async () => {
      const last = writer.end();
      await beforeEnd(writer.response);
      return framesOf(last);
    },
    error: (error) => {
      const { code, message } = errorReply(error).body.error;
      return framesOf(writer.fail({ code, message }));
    },
  };
}
