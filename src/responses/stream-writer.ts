import { addThinkingPiece } from '../reasoning/accumulate-chunks.js';
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '../types/chat.js';
import { newResponsesId } from './ids.js';
import { finishOutcome, functionCallItem, messageItem, outputText, toResponseUsage } from './output-items.js';
import {
  type CallState,
  type ItemState,
  type MessageState,
  type ReasoningState,
  renderItem,
} from './stream-items.js';
import type { ItemStatus, ResponseObject, ResponseStreamEvent, ResponseStreamEventType } from './types.js';

type ToolCallDelta = NonNullable<ChunkDelta['tool_calls']>[number];

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The text of a delta's reasoning: the thinking blocks' pieces when they carry text, else `reasoning_content`. */
function reasoningText(delta: ChunkDelta): string {
  const blocks = delta.thinking_blocks ?? [];
  let text = '';
  for (const block of blocks) if (block.type === 'thinking') text += block.thinking;
  return text !== '' ? text : (delta.reasoning_content ?? '');
}

/**
 * Turns a chat completion stream into the Responses event stream, one chunk at a time and
 * synchronously (no promise per chunk or event): `push` each chunk and send the events it returns, in
 * order; at the end of the chunks send what `end` returns, or what `fail` returns when the stream
 * failed. The events are what the official openai SDK's `responses.stream` accumulates:
 *
 * - `response.created` and `response.in_progress` first (with the shell: no output yet);
 * - reasoning: `response.output_item.added` (a `reasoning` item), `response.reasoning_summary_part.added`,
 *   `response.reasoning_summary_text.delta`s, then `.done`, `response.reasoning_summary_part.done`,
 *   `response.output_item.done` (signed thinking blocks in `encrypted_content`);
 * - text: `response.output_item.added` (a `message`), `response.content_part.added`,
 *   `response.output_text.delta`s, `response.output_text.done`, `response.content_part.done`,
 *   `response.output_item.done`;
 * - each tool call: `response.output_item.added` (a `function_call` with its `call_id` and name),
 *   `response.function_call_arguments.delta`s, `.done`, `response.output_item.done`;
 * - last `response.completed`, or `response.incomplete` when the answer was cut by the output limit
 *   or a content filter (`incomplete_details`), with the whole output and the usage; or
 *   `response.failed` with `error: { code, message }` from `fail`.
 *
 * `sequence_number` counts every event from 0. Items are numbered in the order they start; a text or
 * reasoning item is done when another item starts, tool calls when text or reasoning starts or at the
 * end (late argument pieces go to their call by index). `response` is the Response as it stands
 * (complete after `end`), what a gateway stores.
 *
 * @example
 * const writer = new ResponsesStreamWriter(responseShell(request));
 * for await (const chunk of stream) for (const event of writer.push(chunk)) send(event.type, event);
 * for (const event of writer.end()) send(event.type, event);
 */
export class ResponsesStreamWriter {
  #sequence = 0;
  #started = false;
  #response: ResponseObject;
  readonly #items: ItemState[] = [];
  /** The text or reasoning item being streamed. */
  #open: MessageState | ReasoningState | undefined;
  readonly #calls = new Map<number, CallState>();
  #finish: FinishReason | null = null;
  #usage: Usage | undefined;
  #out: ResponseStreamEvent[] = [];

  /** @param shell the Response the stream starts from (see `responseShell`); not changed. */
  constructor(shell: ResponseObject) {
    this.#response = shell;
  }

  /** The Response as it stands: the shell until `end` or `fail`, then the finished one. */
  get response(): ResponseObject {
    return this.#response;
  }

  /** The events one chunk adds (the first chunk's begin with `response.created`). */
  push(chunk: ChatCompletionChunk): ResponseStreamEvent[] {
    this.#begin();
    if (chunk.usage) this.#usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue; // a response has one answer
      const { delta } = choice;
      if (delta.reasoning_content || delta.thinking_blocks?.length) this.#reasoning(delta);
      if (delta.content) this.#text(delta.content);
      for (const call of delta.tool_calls ?? []) this.#toolCall(call);
      if (choice.finish_reason) this.#finish = choice.finish_reason;
    }
    return this.#take();
  }

  /** The closing events of a stream whose chunks all arrived: open items done, then the terminal event. */
  end(): ResponseStreamEvent[] {
    this.#begin();
    const outcome = finishOutcome(this.#finish);
    const itemStatus: ItemStatus = outcome.status === 'completed' ? 'completed' : 'incomplete';
    this.#closeOpen(itemStatus);
    this.#closeCalls();
    this.#response = {
      ...this.#response,
      ...outcome,
      completed_at: outcome.status === 'completed' ? nowSeconds() : null,
      output: this.#items.map((item) => renderItem(item, itemStatus)),
      usage: this.#usage ? toResponseUsage(this.#usage) : null,
    };
    const type = outcome.status === 'completed' ? 'response.completed' : 'response.incomplete';
    this.#emit(type, { response: this.#response });
    return this.#take();
  }

  /**
   * The event that ends a stream failing after it started: `response.failed`, the Response with
   * `status: "failed"`, `error` (the gateway's error code and message) and the output so far.
   */
  fail(error: { code: string; message: string }): ResponseStreamEvent[] {
    this.#begin();
    this.#response = {
      ...this.#response,
      status: 'failed',
      error: { code: error.code, message: error.message },
      output: this.#items.map((item) => renderItem(item, item.done ? 'completed' : 'incomplete')),
      usage: this.#usage ? toResponseUsage(this.#usage) : null,
    };
    this.#emit('response.failed', { response: this.#response });
    return this.#take();
  }

  #emit(type: ResponseStreamEventType, fields: Record<string, unknown>): void {
    this.#out.push({ type, sequence_number: this.#sequence++, ...fields });
  }

  #take(): ResponseStreamEvent[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }

  #begin(): void {
    if (this.#started) return;
    this.#started = true;
    this.#emit('response.created', { response: this.#response });
    this.#emit('response.in_progress', { response: this.#response });
  }

  #add<T extends ItemState>(state: T, item: unknown): T {
    this.#items.push(state);
    this.#emit('response.output_item.added', { output_index: state.index, item });
    return state;
  }

  #reasoning(delta: ChunkDelta): void {
    let state = this.#open?.kind === 'reasoning' ? this.#open : undefined;
    const text = reasoningText(delta);
    const blocks = delta.thinking_blocks ?? [];
    // a lone signature belongs to the thinking just streamed, even when that item is closed
    const lateSignature = text === '' && blocks.every((b) => b.type === 'thinking' && b.thinking === '');
    if (!state && lateSignature) state = this.#lastReasoning();
    if (!state) {
      this.#closeOpen('completed');
      this.#closeCalls();
      const id = newResponsesId('rs');
      const opened: ReasoningState = {
        kind: 'reasoning',
        index: this.#items.length,
        id,
        text: '',
        blocks: [],
        summary: false,
        done: false,
      };
      state = this.#add(opened, { type: 'reasoning', id, summary: [] });
      this.#open = state;
    }
    for (const block of blocks) addThinkingPiece(state.blocks, block);
    if (text === '') return;
    const at = { item_id: state.id, output_index: state.index, summary_index: 0 };
    if (!state.summary) {
      state.summary = true;
      this.#emit('response.reasoning_summary_part.added', {
        ...at,
        part: { type: 'summary_text', text: '' },
      });
    }
    state.text += text;
    this.#emit('response.reasoning_summary_text.delta', { ...at, delta: text });
  }

  #lastReasoning(): ReasoningState | undefined {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i]!;
      if (item.kind === 'reasoning') return item;
    }
    return undefined;
  }

  #text(piece: string): void {
    let state = this.#open?.kind === 'message' ? this.#open : undefined;
    if (!state) {
      this.#closeOpen('completed');
      this.#closeCalls();
      const id = newResponsesId('msg');
      state = this.#add(
        { kind: 'message', index: this.#items.length, id, text: '', done: false },
        messageItem(id, 'in_progress'),
      );
      this.#open = state;
      this.#emit('response.content_part.added', {
        item_id: id,
        output_index: state.index,
        content_index: 0,
        part: outputText(''),
      });
    }
    state.text += piece;
    this.#emit('response.output_text.delta', {
      item_id: state.id,
      output_index: state.index,
      content_index: 0,
      delta: piece,
      logprobs: [],
    });
  }

  #toolCall(call: ToolCallDelta): void {
    let state = this.#calls.get(call.index);
    if (!state) {
      this.#closeOpen('completed');
      const id = newResponsesId('fc');
      const opened: CallState = {
        kind: 'call',
        index: this.#items.length,
        id,
        call_id: call.id ?? `call_${id.slice(3, 27)}`,
        name: call.function?.name ?? '',
        arguments: '',
        done: false,
      };
      state = this.#add(opened, functionCallItem(id, opened, 'in_progress'));
      this.#calls.set(call.index, state);
    } else if (call.function?.name) state.name += call.function.name;
    const piece = call.function?.arguments;
    if (!piece) return;
    state.arguments += piece;
    this.#emit('response.function_call_arguments.delta', {
      item_id: state.id,
      output_index: state.index,
      delta: piece,
    });
  }

  #closeOpen(status: ItemStatus): void {
    const state = this.#open;
    this.#open = undefined;
    if (!state) return;
    state.done = true;
    const at = { item_id: state.id, output_index: state.index };
    if (state.kind === 'message') {
      const text = state.text;
      this.#emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      this.#emit('response.content_part.done', { ...at, content_index: 0, part: outputText(text) });
    } else if (state.summary) {
      this.#emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: state.text });
      this.#emit('response.reasoning_summary_part.done', {
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: state.text },
      });
    }
    this.#emit('response.output_item.done', { output_index: state.index, item: renderItem(state, status) });
  }

  #closeCalls(): void {
    for (const state of this.#calls.values()) {
      if (state.done) continue;
      state.done = true;
      const at = { item_id: state.id, output_index: state.index };
      this.#emit('response.function_call_arguments.done', {
        ...at,
        arguments: state.arguments,
        name: state.name,
      });
      this.#emit('response.output_item.done', {
        output_index: state.index,
        item: renderItem(state, 'completed'),
      });
    }
  }
}
