import { randomUUID } from 'node:crypto';
import { type ErrorContext, errorFromResponse, statusForCode } from '../../errors/map-error.js';
import type { ChatCompletionChunk, ChunkDelta, FinishReason } from '../../types/index.js';
import { newChunk, oneChoice, reasoningDelta, textDelta } from '../shared/chunk-objects.js';
import { errorContextOf } from '../shared/error-context.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ProviderTarget, StreamMonitor } from '../shared/provider-adapter.js';
import { streamEndedEarly } from '../shared/provider-errors.js';
import { parseStreamJson } from '../shared/stream-json.js';
import { toBedrockUsage } from './convert-response.js';
import { BEDROCK_ERROR_CODES } from './error-codes.js';
import { bedrockErrorCode } from './error-map.js';
import { decodeEventStream, type EventStreamFrame } from './event-stream.js';
import { toFinishReason } from './finish-reason.js';
import { bedrockModelId, isClaudeModel } from './model-id.js';
import { bedrockStreamCodec } from './stream-codec.js';

type Json = Record<string, unknown>;

// one decoder for every frame: decoding whole payloads keeps no state between calls
const UTF8 = new TextDecoder();

/** What a stream has said so far: its identity, and which content block is which tool call. */
class StreamState {
  readonly id = `chatcmpl-${randomUUID()}`;
  readonly created = Math.floor(Date.now() / 1000);
  readonly model: string;
  readonly claude: boolean;
  // content block index -> tool call index (position among toolUse blocks)
  readonly toolIndex = new Map<number, number>();
  roleSent = false;
  stopped = false;

  constructor(target: ProviderTarget) {
    this.model = bedrockModelId(target);
    this.claude = isClaudeModel(target);
  }

  chunk(delta: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk {
    // the first chunk says who speaks, even when Bedrock skipped messageStart
    const first = this.roleSent ? delta : { role: 'assistant' as const, ...delta };
    this.roleSent = true;
    return newChunk(this.id, this.created, this.model, oneChoice(0, first, finish));
  }
}

const blockIndex = (event: Json): number => asFiniteNumber(event.contentBlockIndex) ?? -1;

function onBlockStart(state: StreamState, event: Json): ChunkDelta | undefined {
  const toolUse = asRecord(asRecord(event.start)?.toolUse);
  if (!toolUse) return undefined;
  const index = state.toolIndex.size;
  state.toolIndex.set(blockIndex(event), index);
  const id = asString(toolUse.toolUseId) ?? `tooluse_${index}`;
  const name = asString(toolUse.name) ?? '';
  return { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] };
}

function onReasoningDelta(state: StreamState, reasoning: Json): ChunkDelta | undefined {
  const text = asString(reasoning.text);
  if (text !== undefined) {
    if (text === '') return undefined;
    return reasoningDelta(text, state.claude);
  }
  const signature = asString(reasoning.signature);
  const redacted = asString(reasoning.redactedContent);
  if (state.claude && signature !== undefined)
    return { thinking_blocks: [{ type: 'thinking', thinking: '', signature }] };
  if (state.claude && redacted !== undefined)
    return { thinking_blocks: [{ type: 'redacted_thinking', data: redacted }] };
  // other models have no thinking_blocks: their signed or redacted pieces stay native
  return signature !== undefined || redacted !== undefined
    ? { provider_specific_fields: { reasoningContent: reasoning } }
    : undefined;
}

function onBlockDelta(state: StreamState, event: Json): ChunkDelta | undefined {
  const delta = asRecord(event.delta) ?? {};
  if (typeof delta.text === 'string') return delta.text === '' ? undefined : textDelta(delta.text);
  const reasoning = asRecord(delta.reasoningContent);
  if (reasoning) return onReasoningDelta(state, reasoning);
  const piece = asString(asRecord(delta.toolUse)?.input);
  const index = state.toolIndex.get(blockIndex(event));
  if (!piece || index === undefined) return undefined;
  return { tool_calls: [{ index, function: { arguments: piece } }] };
}

/** A frame's JSON payload; undefined (and told to `monitor`) when it is not a JSON object. */
function payloadOf(
  frame: EventStreamFrame,
  target: ProviderTarget,
  monitor?: StreamMonitor,
): Json | undefined {
  const what = `a ${frame.eventType ?? frame.messageType} event`;
  return parseStreamJson(UTF8.decode(frame.payload), target, what, monitor);
}

/** An exception frame (or an `error` message) as its contract class, after HTTP 200. */
function streamError(frame: EventStreamFrame, target: ProviderTarget, ctx: ErrorContext): Error {
  if (frame.messageType === 'error') {
    const code = frame.errorCode;
    const message = frame.errorMessage ?? 'stream error';
    const status = statusForCode(code, BEDROCK_ERROR_CODES) ?? 500;
    return errorFromResponse({ status, message, code }, ctx, BEDROCK_ERROR_CODES);
  }
  // without a readable payload the exception type alone still says what happened
  const body: Json = payloadOf(frame, target) ?? {};
  const code = frame.exceptionType;
  const message = asString(body.message) ?? asString(body.Message) ?? code ?? 'stream error';
  return errorFromResponse(
    {
      status: statusForCode(code, BEDROCK_ERROR_CODES) ?? 500,
      message,
      code: bedrockErrorCode(code, message),
    },
    ctx,
    BEDROCK_ERROR_CODES,
  );
}

function* onEvent(state: StreamState, type: string | undefined, event: Json): Generator<ChatCompletionChunk> {
  if (type === 'messageStart') {
    yield state.chunk({ content: '' });
  } else if (type === 'contentBlockStart' || type === 'contentBlockDelta') {
    const delta = type === 'contentBlockStart' ? onBlockStart(state, event) : onBlockDelta(state, event);
    if (delta) yield state.chunk(delta);
  } else if (type === 'messageStop') {
    state.stopped = true;
    yield state.chunk({}, toFinishReason(event.stopReason) ?? 'stop');
  } else if (type === 'metadata' && event.usage !== undefined) {
    yield { ...state.chunk({}), choices: [], usage: toBedrockUsage(event.usage) };
  }
}

/**
 * A ConverseStream body (binary AWS event stream) into `chat.completion.chunk`s: a role chunk at
 * `messageStart`; text, reasoning (for Claude with `thinking_blocks` pieces, the signature and redacted
 * blocks) and tool calls as they stream; the finish reason at `messageStop`; a usage chunk from
 * `metadata`, last. An exception frame (even after HTTP 200) throws its contract class; an event
 * whose payload is not JSON is skipped and reported to `monitor`. `messageStop` carries the finish: a
 * stream that ends cleanly after it is complete (with or without `metadata`), one that ends before
 * throws APIConnectionError.
 */
export async function* bedrockChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
  secrets: readonly string[] = [],
  monitor?: StreamMonitor,
): AsyncGenerator<ChatCompletionChunk> {
  const ctx: ErrorContext = errorContextOf(target, secrets);
  const state = new StreamState(target);
  const codec = await bedrockStreamCodec(target);
  for await (const frame of decodeEventStream(body, codec, monitor)) {
    if (frame.messageType === 'exception' || frame.messageType === 'error')
      throw streamError(frame, target, ctx);
    if (frame.messageType !== 'event') continue;
    const event = payloadOf(frame, target, monitor);
    if (event) yield* onEvent(state, frame.eventType, event);
  }
  if (!state.stopped) throw streamEndedEarly(target, 'no messageStop');
}
