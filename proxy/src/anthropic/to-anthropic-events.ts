import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '@svc/router';
import { messageId } from './message-id.js';
import { toAnthropicStop } from './stop-reason.js';
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

  /**
   * The Anthropic and Bedrock adapters send each thinking piece in both fields, other providers only
   * in `reasoning_content`: the blocks are read one by one (a delta may hold a whole signed block, or
   * two), and `reasoning_content` only when no block has text.
   */
  thinking(delta: ChunkDelta, out: AnthropicStreamEvent[]): void {
    const blocks = delta.thinking_blocks ?? [];
    if (!blocks.some((b) => b.type === 'thinking' && b.thinking !== ''))
      this.thinkingText(delta.reasoning_content, out);
    for (const block of blocks) {
      if (block.type === 'redacted_thinking') {
        this.start('thinking', { type: 'redacted_thinking', data: block.data }, out);
        this.close(out);
        continue;
      }
      this.thinkingText(block.thinking, out);
      if (block.signature) this.signature(block.signature, out);
    }
  }

  private thinkingText(text: string | undefined, out: AnthropicStreamEvent[]): void {
    if (!text) return;
    const block = this.thinkingBlock(out);
    out.push(
      event('content_block_delta', { index: block.index, delta: { type: 'thinking_delta', thinking: text } }),
    );
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

function messageStart(id: string, options: AnthropicStreamOptions): AnthropicStreamEvent {
  const message = {
    id: messageId(id),
    type: 'message',
    role: 'assistant',
    model: options.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: options.inputTokens ?? 0, output_tokens: 0 },
  };
  return event('message_start', { message });
}

/** What the stream's end reports: the finish reason, a matched stop sequence, the last usage seen. */
interface StreamEnd {
  finish: FinishReason | null;
  fields: Record<string, unknown> | undefined;
  usage: Usage | undefined;
}

function messageEnd({ finish, fields, usage }: StreamEnd): AnthropicStreamEvent[] {
  // output_tokens is what Anthropic sends here; the input counts are only known at the end of a
  // translated stream, and the SDK takes them from message_delta when present
  const delta = event('message_delta', {
    delta: toAnthropicStop(finish, fields),
    usage: usage ? toAnthropicUsage(usage) : { output_tokens: 0 },
  });
  return [delta, event('message_stop')];
}

/** Options of {@link chunksToAnthropicEvents}. */
export interface AnthropicStreamOptions {
  /** The model name the client asked for, which the message repeats. */
  model: string;
  /**
   * The prompt's token count when known before the answer (a token counter), for `message_start`;
   * Anthropic clients that read input tokens only there see 0 without it. The final count goes to
   * `message_delta` either way.
   */
  inputTokens?: number;
}

/**
 * A chat completion stream as Anthropic's message stream, the events the Anthropic SDK accumulates:
 * `message_start`; per content block in order `content_block_start`, its `content_block_delta`s
 * (`thinking_delta` and `signature_delta`, `text_delta`, `input_json_delta`) and `content_block_stop`;
 * then `message_delta` (stop reason and usage) and `message_stop`. The usage chunk may come after the
 * finish reason, so `message_delta` waits for `end()`. Synchronous, one chunk at a time: what the
 * proxy's stream writer calls per chunk.
 *
 * @example const writer = new AnthropicEventWriter({ model: 'claude' }); writer.push(chunk); writer.end();
 */
export class AnthropicEventWriter {
  readonly #blocks = new BlockWriter();
  readonly #end: StreamEnd = { finish: null, fields: undefined, usage: undefined };
  #started = false;

  constructor(private readonly options: AnthropicStreamOptions) {}

  /** The events of one chunk, in order (none for a chunk that says nothing Anthropic shows). */
  push(chunk: ChatCompletionChunk): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = [];
    const end = this.#end;
    if (!this.#started) {
      this.#started = true;
      out.push(messageStart(chunk.id, this.options));
    }
    if (chunk.usage) end.usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue; // Anthropic messages have one answer
      this.#blocks.thinking(choice.delta, out);
      this.#blocks.text(choice.delta.content, out);
      for (const call of choice.delta.tool_calls ?? []) this.#blocks.toolCall(call, out);
      if (choice.delta.provider_specific_fields?.stop_sequence !== undefined)
        end.fields = choice.delta.provider_specific_fields;
      if (choice.finish_reason) end.finish = choice.finish_reason;
    }
    return out;
  }

  /** The events after the last chunk of a complete stream: open blocks closed, `message_delta`, `message_stop`. */
  end(): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = this.#started ? [] : [messageStart(randomUUID(), this.options)];
    this.#blocks.close(out);
    out.push(...messageEnd(this.#end));
    return out;
  }
}

/**
 * `AnthropicEventWriter` over an async iterable of chunks. An error in the input is thrown to the
 * caller, which ends the stream with an `error` event.
 *
 * @example for await (const { event, data } of chunksToAnthropicEvents(chunks, { model: 'claude' })) send(event, data);
 */
export async function* chunksToAnthropicEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  options: AnthropicStreamOptions,
): AsyncGenerator<AnthropicStreamEvent> {
  const writer = new AnthropicEventWriter(options);
  for await (const chunk of chunks) yield* writer.push(chunk);
  yield* writer.end();
}
