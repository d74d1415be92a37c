import type { FastifyReply } from 'fastify';
import type { ChatCompletionStream } from '../../router/chat-stream.js';
import type { ChatCompletionChunk, Usage } from '../../types/index.js';
import { type CallState, overheadMs } from '../http/call-state.js';
import { SSE_HEADERS, writeFrame } from '../http/sse.js';
import type { CallLedger } from '../spend/call-ledger.js';

/** How one API writes a chat stream as server-sent events. */
export interface StreamFormat {
  /** The frames for the chunks, in order. */
  frames(chunks: AsyncIterable<ChatCompletionChunk>): AsyncIterable<string>;
  /** Sent after the last frame of a complete stream (OpenAI's `data: [DONE]`). */
  end?: string;
  /** The in-band frame that ends a stream failing after its first byte. */
  error(error: unknown): string;
}

/**
 * Sends a router stream. The reader's pace sets the upstream's (a chunk is read only once the last
 * one is written); a client that goes away stops the upstream read; a stream that fails after its
 * first byte ends with an in-band error frame and never with the `end` frame, so no client takes a cut
 * answer for a whole one. The ledger is closed with the final usage and cost.
 */
export async function sendStream(
  reply: FastifyReply,
  stream: ChatCompletionStream,
  format: StreamFormat,
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
  const usage: { last?: Usage } = {};
  const clientGone = () => signal.aborted || raw.destroyed;
  try {
    for await (const frame of format.frames(tapUsage(stream, usage, ledger))) {
      if (!(await writeFrame(raw, frame))) break;
    }
    if (clientGone()) {
      ledger.fail(signal.reason, true);
      return;
    }
    if (format.end) await writeFrame(raw, format.end);
    ledger.succeed(stream._hidden_params, usage.last);
  } catch (error) {
    const gone = clientGone();
    if (!gone) await writeFrame(raw, format.error(error));
    ledger.fail(error, gone);
  } finally {
    if (!raw.destroyed) raw.end();
  }
}

async function* tapUsage(
  stream: AsyncIterable<ChatCompletionChunk>,
  usage: { last?: Usage },
  ledger: CallLedger,
): AsyncGenerator<ChatCompletionChunk> {
  for await (const chunk of stream) {
    ledger.firstChunk();
    if (chunk.usage) usage.last = chunk.usage;
    yield chunk;
  }
}
