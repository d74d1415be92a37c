import { randomUUID } from 'node:crypto';
import { errorFromResponse, statusForCode } from '../../errors/map-error.js';
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '../../types/index.js';
import { newChunk, oneChoice, reasoningDelta, textDelta } from '../shared/chunk-objects.js';
import { errorContextOf } from '../shared/error-context.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ChunkTransform, ProviderTarget, StreamMonitor } from '../shared/provider-adapter.js';
import { streamEndedEarly } from '../shared/provider-errors.js';
import type { SseEvent } from '../shared/sse.js';
import { parseStreamJson } from '../shared/stream-json.js';
import { transformChunks } from '../shared/transform-chunks.js';
import { assertPromptNotBlocked, readParts, toGeminiUsage, toToolCall } from './convert-response.js';
import { GOOGLE_ERROR_CODES } from './error-codes.js';
import { toFinishReason } from './finish-reason.js';

type DeltaToolCall = NonNullable<ChunkDelta['tool_calls']>[number];

/** Per-candidate progress: whether the role went out, how many calls, whether it finished. */
interface CandidateState {
  started: boolean;
  calls: number;
  finish: FinishReason | null;
}

const contextOf = (target: ProviderTarget) => errorContextOf(target);

/** Throws the contract error for an `error` object sent inside a 200 stream. */
function throwStreamError(error: Record<string, unknown>, target: ProviderTarget): never {
  const code = asString(error.status);
  const status = asFiniteNumber(error.code) ?? statusForCode(code, GOOGLE_ERROR_CODES) ?? 500;
  throw errorFromResponse(
    { status, message: asString(error.message) ?? 'stream error', code },
    contextOf(target),
    GOOGLE_ERROR_CODES,
  );
}

/** The deltas one candidate fragment carries, in order: reasoning, text (with signatures), calls. */
function deltasOf(candidate: Record<string, unknown>, state: CandidateState): ChunkDelta[] {
  const parts = readParts(asRecord(candidate.content)?.parts);
  const deltas: ChunkDelta[] = [];
  if (parts.reasoning !== '') deltas.push(reasoningDelta(parts.reasoning, false));
  if (parts.text !== '' || parts.signatures.length > 0) {
    const delta: ChunkDelta = parts.text !== '' ? textDelta(parts.text) : {};
    if (parts.signatures.length > 0)
      delta.provider_specific_fields = { thought_signatures: parts.signatures };
    deltas.push(delta);
  }
  for (const call of parts.calls) {
    const toolCall = toToolCall(call, state.calls++);
    // the signature rides on the opening piece of its call, as on the non-streaming tool call
    const opening: DeltaToolCall & { provider_specific_fields?: Record<string, unknown> } = {
      index: toolCall.index ?? 0,
      id: toolCall.id,
      type: 'function',
      function: { name: toolCall.function.name, arguments: '' },
    };
    if (toolCall.provider_specific_fields)
      opening.provider_specific_fields = toolCall.provider_specific_fields;
    deltas.push({ tool_calls: [opening] });
    deltas.push({
      tool_calls: [{ index: opening.index, function: { arguments: toolCall.function.arguments } }],
    });
  }
  return deltas;
}

/** What one candidate fragment adds to the stream: its deltas, the first carrying the role, then its finish. */
function candidateChunks(
  candidate: Record<string, unknown>,
  state: CandidateState,
): Array<{ delta: ChunkDelta; finish: FinishReason | null }> {
  const out: Array<{ delta: ChunkDelta; finish: FinishReason | null }> = deltasOf(candidate, state).map(
    (delta) => ({ delta, finish: null }),
  );
  const finish = toFinishReason(asString(candidate.finishReason), state.calls > 0);
  if (finish && !state.finish) {
    state.finish = finish;
    out.push({ delta: {}, finish });
  }
  if (!state.started && out[0]) out[0].delta.role = 'assistant';
  if (out.length > 0) state.started = true;
  return out;
}

/**
 * Gemini SSE (`?alt=sse`: every `data:` a `GenerateContentResponse` fragment) into
 * `chat.completion.chunk`s. Gemini has no terminal event: a stream is complete when it ends after
 * every candidate carried a `finishReason`; one that ends before is an APIConnectionError. An `error`
 * object in the stream throws its contract class; a blocked prompt throws ContentPolicyViolationError;
 * an event that is not JSON is skipped and reported to `monitor`. One event at a time, synchronously.
 */
export class GeminiChunkTransform implements ChunkTransform<ChatCompletionChunk> {
  readonly #states = new Map<number, CandidateState>();
  readonly #created = Math.floor(Date.now() / 1000);
  #id = '';
  #model: string;
  #usage: Usage | undefined;

  constructor(
    private readonly target: ProviderTarget,
    private readonly monitor?: StreamMonitor,
  ) {
    this.#model = target.model;
  }

  #chunk(index: number, delta: ChunkDelta, finish: FinishReason | null): ChatCompletionChunk {
    return newChunk(this.#id, this.#created, this.#model, oneChoice(index, delta, finish), null);
  }

  event(event: SseEvent, out: ChatCompletionChunk[]): void {
    const target = this.target;
    const json = parseStreamJson(event.data, target, 'an event', this.monitor);
    if (!json) return;
    const error = asRecord(json.error);
    if (error) throwStreamError(error, target);
    assertPromptNotBlocked(json, target);
    this.#id ||= asString(json.responseId) ?? `chatcmpl-${randomUUID()}`;
    this.#model = asString(json.modelVersion) ?? this.#model;
    if (json.usageMetadata) this.#usage = toGeminiUsage(json.usageMetadata);
    const candidates = Array.isArray(json.candidates) ? json.candidates : [];
    for (const [i, raw] of candidates.entries()) {
      const candidate = asRecord(raw) ?? {};
      const index = asFiniteNumber(candidate.index) ?? i;
      const state = this.#states.get(index) ?? { started: false, calls: 0, finish: null };
      this.#states.set(index, state);
      for (const { delta, finish } of candidateChunks(candidate, state))
        out.push(this.#chunk(index, delta, finish));
    }
  }

  end(out: ChatCompletionChunk[]): void {
    const states = this.#states;
    if (states.size === 0 || [...states.values()].some((s) => s.finish === null))
      throw streamEndedEarly(this.target, 'a candidate without finishReason');
    out.push({ ...this.#chunk(0, {}, null), choices: [], usage: this.#usage ?? toGeminiUsage(undefined) });
  }
}

/** `GeminiChunkTransform` over a whole body, for a caller that holds the bytes as an async iterable. */
export function geminiChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
  monitor?: StreamMonitor,
): AsyncGenerator<ChatCompletionChunk> {
  return transformChunks(new GeminiChunkTransform(target, monitor), body, monitor);
}
