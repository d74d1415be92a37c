import { randomUUID } from 'node:crypto';
import { type ErrorContext, errorFromResponse, statusForCode } from '../../errors/map-error.js';
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '../../types/index.js';
import { newChunk, oneChoice, reasoningDelta, textDelta } from '../shared/chunk-objects.js';
import { errorContextOf } from '../shared/error-context.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ChunkTransform, ProviderTarget, StreamMonitor } from '../shared/provider-adapter.js';
import { streamEndedEarly } from '../shared/provider-errors.js';
import type { SseEvent } from '../shared/sse.js';
import { parseStreamJson } from '../shared/stream-json.js';
import { transformChunks } from '../shared/transform-chunks.js';
import { mergeAnthropicUsage, toAnthropicUsage } from './convert-response.js';
import { ANTHROPIC_ERROR_CODES } from './error-codes.js';
import { toFinishReason } from './finish-reason.js';

type Json = Record<string, unknown>;

/** What a stream has said so far: its identity, usage, and which content block is a tool call. */
class StreamState {
  id = `msg_${randomUUID()}`;
  model: string;
  readonly created = Math.floor(Date.now() / 1000);
  usage: Json = {};
  // content block index -> tool call index (position among tool_use blocks)
  readonly toolIndex = new Map<number, number>();

  constructor(target: ProviderTarget) {
    this.model = target.model;
  }

  chunk(delta: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk {
    return newChunk(this.id, this.created, this.model, oneChoice(0, delta, finish));
  }

  usageChunk(): ChatCompletionChunk {
    const usage: Usage = toAnthropicUsage(this.usage);
    return { ...this.chunk({}), choices: [], usage };
  }
}

function onBlockStart(state: StreamState, event: Json): ChunkDelta | undefined {
  const index = asFiniteNumber(event.index) ?? -1;
  const block = asRecord(event.content_block) ?? {};
  switch (block.type) {
    case 'text': {
      const text = asString(block.text);
      return text ? textDelta(text) : undefined;
    }
    case 'thinking': {
      const thinking = asString(block.thinking);
      return thinking ? reasoningDelta(thinking, true) : undefined;
    }
    // redacted thinking never streams deltas: its whole `data` comes with the block's start
    case 'redacted_thinking':
      return { thinking_blocks: [{ type: 'redacted_thinking', data: asString(block.data) ?? '' }] };
    case 'tool_use': {
      const toolIndex = state.toolIndex.size;
      state.toolIndex.set(index, toolIndex);
      const id = asString(block.id) ?? `toolu_${toolIndex}`;
      const name = asString(block.name) ?? '';
      return { tool_calls: [{ index: toolIndex, id, type: 'function', function: { name, arguments: '' } }] };
    }
    default:
      return undefined;
  }
}

function onBlockDelta(state: StreamState, event: Json): ChunkDelta | undefined {
  const delta = asRecord(event.delta) ?? {};
  switch (delta.type) {
    case 'text_delta':
      return textDelta(asString(delta.text) ?? '');
    case 'thinking_delta': {
      const thinking = asString(delta.thinking) ?? '';
      return reasoningDelta(thinking, true);
    }
    case 'signature_delta':
      return {
        thinking_blocks: [{ type: 'thinking', thinking: '', signature: asString(delta.signature) ?? '' }],
      };
    case 'input_json_delta': {
      const piece = asString(delta.partial_json) ?? '';
      const index = state.toolIndex.get(asFiniteNumber(event.index) ?? -1);
      if (piece === '' || index === undefined) return undefined;
      return { tool_calls: [{ index, function: { arguments: piece } }] };
    }
    case 'citations_delta':
      return { provider_specific_fields: { citation: delta.citation } };
    default:
      return undefined;
  }
}

function streamError(event: Json, ctx: ErrorContext): Error {
  const error = asRecord(event.error) ?? {};
  const code = asString(error.type);
  const message = asString(error.message) ?? 'stream error';
  const status = statusForCode(code, ANTHROPIC_ERROR_CODES) ?? 500;
  return errorFromResponse({ status, message, code }, ctx, ANTHROPIC_ERROR_CODES);
}

/**
 * Anthropic Messages SSE events into `chat.completion.chunk`s, one event at a time and synchronously:
 * a role chunk at `message_start`, text, reasoning (with `thinking_blocks` pieces and the signature)
 * and tool calls as they stream, the finish reason at `message_delta` and a usage chunk at
 * `message_stop`. `ping` events are ignored wherever they fall, events that are not JSON skipped and
 * reported to `monitor`. An `error` event (even after HTTP 200) throws its contract class. The stream
 * is complete at `message_stop`, or when the body ends cleanly after a `message_delta` with a
 * `stop_reason` (the usage chunk then comes at the end); one that ends before throws APIConnectionError.
 */
export class AnthropicChunkTransform implements ChunkTransform<ChatCompletionChunk> {
  readonly #ctx: ErrorContext;
  readonly #state: StreamState;
  #done = false;
  #stopped = false;

  constructor(
    private readonly target: ProviderTarget,
    private readonly monitor?: StreamMonitor,
  ) {
    this.#ctx = errorContextOf(target);
    this.#state = new StreamState(target);
  }

  event(sse: SseEvent, out: ChatCompletionChunk[]): void {
    if (this.#done) return; // drain so the connection goes back to the pool
    const event = parseStreamJson(sse.data, this.target, 'an event', this.monitor);
    if (!event) return;
    const state = this.#state;
    const type = asString(event.type) ?? sse.event;
    if (type === 'message_start') {
      const message = asRecord(event.message) ?? {};
      state.id = asString(message.id) ?? state.id;
      state.model = asString(message.model) ?? state.model;
      state.usage = { ...asRecord(message.usage) };
      out.push(state.chunk({ role: 'assistant', content: '' }));
    } else if (type === 'content_block_start' || type === 'content_block_delta') {
      const delta = type === 'content_block_start' ? onBlockStart(state, event) : onBlockDelta(state, event);
      if (delta) out.push(state.chunk(delta));
    } else if (type === 'message_delta') {
      mergeAnthropicUsage(state.usage, event.usage);
      const reason = toFinishReason(asRecord(event.delta)?.stop_reason);
      if (reason) {
        this.#stopped = true;
        out.push(state.chunk({}, reason));
      }
    } else if (type === 'message_stop') {
      this.#done = true;
      out.push(state.usageChunk());
    } else if (type === 'error') {
      throw streamError(event, this.#ctx);
    }
  }

  end(out: ChatCompletionChunk[]): void {
    if (this.#done) return;
    if (!this.#stopped) throw streamEndedEarly(this.target, 'no message_delta with stop_reason');
    out.push(this.#state.usageChunk());
  }
}

/** `AnthropicChunkTransform` over a whole body, for a caller that holds the bytes as an async iterable. */
export function anthropicChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
  monitor?: StreamMonitor,
): AsyncGenerator<ChatCompletionChunk> {
  return transformChunks(new AnthropicChunkTransform(target, monitor), body, monitor);
}
