import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '../../types/chat.js';
import { messageId } from './message-id.js';
import { toStopReason } from './stop-reason.js';
import { toAnthropicUsage } from './to-anthropic-usage.js';

/** One event of Anthropic's message stream: its SSE name and JSON data (which repeats the name as `type`). */
export interface AnthropicStreamEvent {
  event: string;
  data: { type: string; [field: string]: unknown };
}

type ToolCallDelta = NonNullable<ChunkDelta['tool_calls']>[number];

interface OpenBlock {
  kind: 'thinking' | 'text' | 'tool_use';
  index: number;
  signed: boolean;
}

function event(type: string, fields: Record<string, unknown> = {}): AnthropicStreamEvent {
  return { event: type, data: { type, ...fields } };
}

/**
 * Turns chunk deltas into content block events. Blocks are numbered in the order they start; a block
 * is closed when one of another kind starts (Anthropic streams one block at a time), except that a
 * late tool-call piece or signature goes to the block it belongs to by index.
 */
class BlockWriter {
  private next = 0;
  private open: OpenBlock | undefined;
  private lastThinking: OpenBlock | undefined;
  private readonly toolBlocks = new Map<number, number>();

  private start(
    kind: OpenBlock['kind'],
    block: Record<string, unknown>,
    out: AnthropicStreamEvent[],
  ): OpenBlock {
    this.close(out);
    const opened: OpenBlock = { kind, index: this.next++, signed: false };
    out.push(event('content_block_start', { index: opened.index, content_block: block }));
    this.open = opened;
    return opened;
  }

  close(out: AnthropicStreamEvent[]): void {
    if (this.open) out.push(event('content_block_stop', { index: this.open.index }));
    this.open = undefined;
  }

  private thinkingBlock(out: AnthropicStreamEvent[]): OpenBlock {
    // a signed block is complete: more thinking is Claude's next block
    if (this.open?.kind === 'thinking' && !this.open.signed) return this.open;
    this.lastThinking = this.start('thinking', { type: 'thinking', thinking: '', signature: '' }, out);
    return this.lastThinking;
  }

  thinking(delta: ChunkDelta, out: AnthropicStreamEvent[]): void {
    const blocks = delta.thinking_blocks ?? [];
    // the Anthropic adapter sends the same text in both fields; other providers only reasoning_content
    const text =
      delta.reasoning_content ?? blocks.map((b) => (b.type === 'thinking' ? b.thinking : '')).join('');
    if (text !== '') {
      const block = this.thinkingBlock(out);
      out.push(
        event('content_block_delta', {
          index: block.index,
          delta: { type: 'thinking_delta', thinking: text },
        }),
      );
    }
    for (const block of blocks) {
      if (block.type === 'redacted_thinking') {
        this.start('thinking', { type: 'redacted_thinking', data: block.data }, out);
        this.close(out);
      } else if (block.signature) this.signature(block.signature, out);
    }
  }

  // A signature ends its thinking block; one arriving after the block was closed still goes to it.
  private signature(signature: string, out: AnthropicStreamEvent[]): void {
    const block = this.open?.kind === 'thinking' ? this.open : (this.lastThinking ?? this.thinkingBlock(out));
    block.signed = true;
    out.push(
      event('content_block_delta', { index: block.index, delta: { type: 'signature_delta', signature } }),
    );
  }

  text(text: string | null | undefined, out: AnthropicStreamEvent[]): void {
    if (!text) return;
    const block =
      this.open?.kind === 'text' ? this.open : this.start('text', { type: 'text', text: '' }, out);
    out.push(event('content_block_delta', { index: block.index, delta: { type: 'text_delta', text } }));
  }

  toolCall(call: ToolCallDelta, out: AnthropicStreamEvent[]): void {
    let index = this.toolBlocks.get(call.index);
    if (index === undefined) {
      const id = call.id ?? `toolu_${this.next}`;
      const block = { type: 'tool_use', id, name: call.function?.name ?? '', input: {} };
      index = this.start('tool_use', block, out).index;
      this.toolBlocks.set(call.index, index);
    }
    const piece = call.function?.arguments;
    if (piece) {
      out.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }),
      );
    }
  }
}

function messageStart(id: string, model: string): AnthropicStreamEvent {
  const message = {
    id: messageId(id),
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  return event('message_start', { message });
}

function messageEnd(finish: FinishReason | null, usage: Usage | undefined): AnthropicStreamEvent[] {
  const counts = toAnthropicUsage(usage);
  // output_tokens is what Anthropic sends here; the input counts are only known at the end of a
  // translated stream, and the SDK takes them from message_delta when present
  const delta = event('message_delta', {
    delta: { stop_reason: toStopReason(finish), stop_sequence: null },
    usage: usage ? counts : { output_tokens: 0 },
  });
  return [delta, event('message_stop')];
}

/**
 * A chat completion stream as Anthropic's message stream, the events the Anthropic SDK accumulates:
 * `message_start`; per content block in order `content_block_start`, its `content_block_delta`s
 * (`thinking_delta` and `signature_delta`, `text_delta`, `input_json_delta`) and `content_block_stop`;
 * then `message_delta` (stop reason and usage) and `message_stop`. The usage chunk may come after the
 * finish reason, so `message_delta` waits for the end of the input. An error in the input is thrown
 * to the caller, which ends the stream with an `error` event.
 *
 * @example for await (const { event, data } of chunksToAnthropicEvents(chunks, { model: 'claude' })) send(event, data);
 */
export async function* chunksToAnthropicEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  options: { model: string },
): AsyncGenerator<AnthropicStreamEvent> {
  const blocks = new BlockWriter();
  let started = false;
  let finish: FinishReason | null = null;
  let usage: Usage | undefined;
  for await (const chunk of chunks) {
    const out: AnthropicStreamEvent[] = [];
    if (!started) {
      started = true;
      out.push(messageStart(chunk.id, options.model));
    }
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue; // Anthropic messages have one answer
      blocks.thinking(choice.delta, out);
      blocks.text(choice.delta.content, out);
      for (const call of choice.delta.tool_calls ?? []) blocks.toolCall(call, out);
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    yield* out;
  }
  const out: AnthropicStreamEvent[] = started ? [] : [messageStart(randomUUID(), options.model)];
  blocks.close(out);
  yield* [...out, ...messageEnd(finish, usage)];
}
