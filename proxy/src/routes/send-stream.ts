import { type ChatCompletionChunk, type ChatCompletionStream, isPromise } from '@svc/router';
import type { FastifyReply } from 'fastify';
import type { DisconnectRead } from '../config/general-settings.js';
import type { CallAbort } from '../http/call-abort.js';
import { type CallState, overheadMs } from '../http/call-state.js';
import { ReadOn } from '../http/read-on.js';
import { FrameWriter, sseHeaders } from '../http/sse.js';
import { type AnswerEnd, type CallLedger, type Charge, CLIENT_CLOSED, WHOLE } from '../spend/call-ledger.js';
import { DeliveredAnswer } from '../spend/delivered-answer.js';

/**
 * How one API writes a chat stream as server-sent events, one chunk at a time and synchronously (a
 * stateful format keeps its state in the object: make one per stream).
 */
export interface StreamFormat {
  /** The frames of one chunk, as one string (empty when the chunk shows nothing in this format). */
  frame(chunk: ChatCompletionChunk): string;
  /**
   * The frames after the last chunk of a complete stream (OpenAI's `data: [DONE]`); called whether or
   * not the client is still there (a format may keep the answer), written only when it is.
   */
  end(): string | Promise<string>;
  /** The in-band frame that ends a stream failing after its first byte. */
  error(error: unknown): string;
}

/** The call a stream answers. */
export interface StreamCall {
  ledger: CallLedger;
  state: CallState;
  abort: CallAbort;
  /** The chat request as routed: its prompt is counted when the upstream reports no usage. */
  request: Readonly<Record<string, unknown>>;
  /** How far the upstream is read after the client left. */
  disconnectRead: DisconnectRead;
  /** How long a write waits for a client that reads nothing before its connection is closed. */
  sendTimeoutMs: number;
}

const UNCOUNTED: Charge = Object.freeze({ usage: undefined, cost: 0, estimated: true });

/**
 * Sends a router stream. The reader's pace sets the upstream's (a chunk is read only once the last
 * one is written); a stream that fails after its first byte ends with an in-band error frame and never
 * with the `end` frame, so no client takes a cut answer for a whole one. A client that goes away does
 * not stop the upstream read at once: it goes on, within `disconnectRead`, for the answer's usage.
 * The ledger is closed with what reached the client, whole or cut (docs/proxy.md, what is charged).
 */
export async function sendStream(
  reply: FastifyReply,
  stream: ChatCompletionStream,
  format: StreamFormat,
  call: StreamCall,
): Promise<void> {
  const { abort, state } = call;
  reply.hijack();
  const raw = reply.raw;
  const answer = new DeliveredAnswer();
  // gone while the stream opened: none of the answer reached it, and its upstream is already
  // cancelled; the provider had the prompt (charged as counted, as a stream left before its usage)
  if (abort.gone) return closeBooks(call, stream, answer, CLIENT_CLOSED);
  raw.writeHead(200, sseHeaders(state.callId, overheadMs(state)));
  abort.answering();
  const clientHere = () => !abort.gone && !raw.destroyed;
  const readOn = new ReadOn(abort, call.disconnectRead);
  const writer = new FrameWriter(raw, call.sendTimeoutMs);
  let end: AnswerEnd = CLIENT_CLOSED;
  const chunks = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    // one synchronous step per chunk (frame it, queue it for the turn's write), the chunks that one
    // read of the upstream brought taken without a promise each (nextReady); only a full socket
    // buffer is waited for, so a slow reader slows the upstream read
    for (;;) {
      const step = chunks.nextReady?.() ?? (await chunks.next());
      if (step.done) {
        finished = true;
        break;
      }
      const chunk = step.value;
      call.ledger.firstChunk();
      answer.arrived(chunk);
      const frame = format.frame(chunk);
      if (clientHere()) {
        const open = writer.write(frame);
        if (open === true || (open !== false && (await open))) {
          // written while the client was there: its text reached the client
          if (clientHere()) answer.delivered(chunk);
          continue;
        }
      }
      if (!readOn.more(Buffer.byteLength(frame))) break;
    }
    // awaited only when a promise: an await of a string or a boolean is still a promise and a turn
    const ending = format.end();
    const last = isPromise(ending) ? await ending : ending;
    if (clientHere()) {
      end = WHOLE;
      const open = writer.write(last);
      if (isPromise(open)) await open;
    }
  } catch (error) {
    if (clientHere()) {
      end = { kind: 'cut', error };
      await writer.write(format.error(error));
    }
  } finally {
    readOn.stop();
    writer.end();
    // as `for await` would: a stream left before its end (the read-on bound, a failure here) is
    // released; one that failed already was (this is then a no-op)
    if (!finished) await Promise.resolve(chunks.return?.()).catch(() => undefined);
  }
  return closeBooks(call, stream, answer, end);
}

/**
 * Charges what the stream's answer is charged (`DeliveredAnswer`), and closes the call's books: at
 * once when the upstream reported usage (nearly every stream), after the count when it did not.
 */
function closeBooks(
  call: StreamCall,
  stream: ChatCompletionStream,
  answer: DeliveredAnswer,
  end: AnswerEnd,
): void | Promise<void> {
  let charge: Charge | Promise<Charge>;
  try {
    charge = answer.charge(call.request, (usage) => stream.costOf(usage));
  } catch {
    charge = UNCOUNTED;
  }
  // a count that fails (it never should) must not leave the call's books open
  if (isPromise(charge))
    return charge
      .catch(() => UNCOUNTED)
      .then((counted) => call.ledger.answered(stream._hidden_params, counted, end));
  call.ledger.answered(stream._hidden_params, charge, end);
}
