import type { FastifyReply } from 'fastify';
import type { ChatCompletionStream } from '../../router/chat-stream.js';
import type { Usage } from '../../types/index.js';
import { type CallState, overheadMs } from '../http/call-state.js';
import { errorReply } from '../http/proxy-error.js';
import { SSE_HEADERS, sseData, writeFrame } from '../http/sse.js';
import type { CallLedger } from '../spend/call-ledger.js';

/**
 * Sends a chat stream as OpenAI's server-sent events. The reader's pace sets the upstream's (one
 * chunk is read only once the last one is written); a client that goes away stops the upstream read;
 * a stream that fails after its first byte ends with an in-band `{"error": ...}` event and no
 * `[DONE]`, so no client takes a cut answer for a whole one.
 */
export async function streamChat(
  reply: FastifyReply,
  stream: ChatCompletionStream,
  ledger: CallLedger,
  state: CallState,
  signal: AbortSignal,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...SSE_HEADERS,
    'x-svc-call-id': state.callId,
    'x-svc-overhead-ms': overheadMs(state),
  });
  let usage: Usage | undefined;
  try {
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      if (!(await writeFrame(raw, sseData(chunk)))) break;
    }
    if (signal.aborted || raw.destroyed) {
      ledger.fail(signal.reason, true);
      return;
    }
    await writeFrame(raw, sseData('[DONE]'));
    ledger.succeed(stream._hidden_params, usage);
  } catch (error) {
    const clientGone = signal.aborted || raw.destroyed;
    if (!clientGone) await writeFrame(raw, sseData(errorReply(error).body));
    ledger.fail(error, clientGone);
  } finally {
    if (!raw.destroyed) raw.end();
  }
}
