import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk, ChunkDelta } from '../../types/index.js';
import { newChoice, newChunk } from '../shared/chunk-objects.js';
import { asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { finishReasonOf, usageOf } from './convert-response.js';
import type { ResponseHooks } from './options.js';

type ToolCallDelta = NonNullable<ChunkDelta['tool_calls']>[number];
type Choice = ChatCompletionChunk['choices'][number];

const NO_CALLS: ToolCallDelta[] = [];
const NO_CHOICES: readonly unknown[] = [];

const emptyValue = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Whether a delta says nothing (a role alone, empty content, null fields). */
export function isEmptyDelta(delta: ChunkDelta): boolean {
  // most deltas of a stream carry text: known to say something without walking their keys. Text a
  // delta inherits counts here, as `carriesContent` reads it (asking whether it is its own was a
  // call each chunk)
  const content = delta.content;
  if (typeof content === 'string' && content !== '') return false;
  const fields = delta as Record<string, unknown>;
  // the other fields walked with for-in, not Object.keys (the keys array was its one allocation);
  // own keys only, as Object.keys gave (a chunk hook may return a delta with a prototype)
  for (const key in fields)
    if (key !== 'role' && Object.hasOwn(fields, key) && !emptyValue(fields[key])) return false;
  return true;
}

/**
 * Whether no choice carries anything: no finish, no delta text (true of none). An indexed loop: this
 * runs on every chunk, and `every` with an arrow function made a function object each time.
 */
function carryNothing(choices: readonly Choice[]): boolean {
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    if (choice.finish_reason !== null || !isEmptyDelta(choice.delta)) return false;
  }
  return true;
}

/** Whether a chunk carries nothing to yield: no delta text, no finish, no usage. */
export function isEmptyChunk(chunk: ChatCompletionChunk): boolean {
  return !chunk.usage && carryNothing(chunk.choices);
}

/** Whether a delta field is one `normalizeDelta` changes or leaves out. */
const changes = (key: string, value: unknown): boolean =>
  key === 'tool_calls' ||
  key === 'reasoning' ||
  key === 'reasoning_details' ||
  key === '__proto__' ||
  (value === null && key !== 'content') ||
  (key === 'reasoning_content' && emptyValue(value));

// `reasoning` (OpenRouter, vLLM) becomes `reasoning_content`; OpenRouter's `reasoning_details` pieces
// go to `provider_specific_fields`; null and empty placeholders are removed. A delta with none of
// these (most of a stream's: `{"content":"..."}`) is the parsed object itself, which nothing else
// holds; any other is built field by field into a new object (no rest copy, no `delete`, which would
// turn each delta into a slow dictionary object).
function normalizeDelta(raw: Record<string, unknown>): ChunkDelta {
  let clean = true;
  for (const key in raw) {
    if (changes(key, raw[key])) {
      clean = false;
      break;
    }
  }
  if (clean) return raw as ChunkDelta;
  const delta: Record<string, unknown> = {};
  for (const key in raw) {
    const value = raw[key];
    // (`__proto__` is an own key of the parsed JSON, but a prototype if assigned)
    if (!changes(key, value)) delta[key] = value;
  }
  const { reasoning, reasoning_details } = raw;
  if (delta.reasoning_content === undefined && typeof reasoning === 'string' && reasoning !== '')
    delta.reasoning_content = reasoning;
  if (Array.isArray(reasoning_details) && reasoning_details.length > 0) {
    const fields = delta.provider_specific_fields as Record<string, unknown> | undefined;
    delta.provider_specific_fields = { ...fields, reasoning_details };
  }
  return delta as ChunkDelta;
}

/**
 * Turns raw OpenAI-compatible chunks into contract chunks, keeping state across one stream: one stable
 * `id`, `created` and `model`; tool calls as a header (`id`, `type`, `name`, empty `arguments`) then
 * argument pieces, each in its own chunk, with an `index` even where the provider omits it (xAI sends
 * whole calls in one delta); usage-only chunks as `choices: []`; chunks with no choices and no usage
 * (Azure's prompt-filter chunk) dropped.
 */
export class ChunkNormalizer {
  #id: string | undefined;
  #created: number | undefined;
  #model: string | undefined;
  // made at the first tool call's id: most streams have none
  #indexById: Map<string, number> | undefined;
  #lastIndex = 0;

  constructor(
    private readonly target: ProviderTarget,
    private readonly hooks: ResponseHooks,
  ) {}

  /**
   * Appends the contract chunks of one raw chunk to `into`: none, one, or several when tool calls
   * are split. Appended, not returned, so that the common event allocates only the chunk it makes.
   */
  normalize(raw: Record<string, unknown>, into: ChatCompletionChunk[]): void {
    const rawChoices: readonly unknown[] = Array.isArray(raw.choices) ? raw.choices : NO_CHOICES;
    const hasUsage = raw.usage !== undefined && raw.usage !== null;
    if (rawChoices.length === 0 && !hasUsage) return;
    this.#id ??= asString(raw.id) || `chatcmpl-${randomUUID()}`;
    this.#created ??=
      typeof raw.created === 'number' && raw.created > 0 ? raw.created : Math.floor(Date.now() / 1000);
    this.#model ??= asString(raw.model) || undefined;
    if (rawChoices.length === 1) {
      // the common chunk (one choice, no tool call) built as it is sent, with nothing in between
      const rawChoice = asRecord(rawChoices[0]) ?? {};
      const rawDelta = asRecord(rawChoice.delta) ?? {};
      const choice = this.#choice(rawChoice, rawDelta, 0);
      const calls = this.#toolCallPieces(rawDelta.tool_calls);
      if (calls.length === 0) {
        // the parsed list of one choice (`raw.choices`, never NO_CHOICES), which nothing else holds,
        // now holds the chunk's choice
        const choices = rawChoices as Choice[];
        choices[0] = choice;
        into.push(this.#chunk(raw, choices));
      } else for (const piece of splitToolCalls(choice, calls)) into.push(this.#chunk(raw, Array.of(piece)));
    } else {
      const choices = rawChoices.map((item, i) => {
        const rawChoice = asRecord(item) ?? {};
        const rawDelta = asRecord(rawChoice.delta) ?? {};
        const choice = this.#choice(rawChoice, rawDelta, i);
        const calls = this.#toolCallPieces(rawDelta.tool_calls);
        return calls.length > 0
          ? newChoice(choice.index, { ...choice.delta, tool_calls: calls }, choice.finish_reason)
          : choice;
      });
      into.push(this.#chunk(raw, choices));
    }
    // every path above appended at least one chunk: usage rides on the last
    if (hasUsage) {
      const last = into[into.length - 1]!;
      last.usage = usageOf(raw.usage, this.hooks);
      if (carryNothing(last.choices)) last.choices = [];
    }
  }

  #chunk(raw: Record<string, unknown>, choices: Choice[]): ChatCompletionChunk {
    const fingerprint =
      raw.system_fingerprint === undefined ? undefined : (asString(raw.system_fingerprint) ?? null);
    return newChunk(this.#id!, this.#created!, this.#model ?? this.target.model, choices, fingerprint);
  }

  #choice(raw: Record<string, unknown>, rawDelta: Record<string, unknown>, i: number): Choice {
    return newChoice(
      typeof raw.index === 'number' ? raw.index : i,
      normalizeDelta(rawDelta),
      finishReasonOf(raw.finish_reason, this.target, this.hooks),
    );
  }

  #toolCallPieces(value: unknown): ToolCallDelta[] {
    if (!Array.isArray(value) || value.length === 0) return NO_CALLS;
    const pieces: ToolCallDelta[] = [];
    for (const item of value) {
      const call = asRecord(item) ?? {};
      const fn = asRecord(call.function) ?? {};
      const id = asString(call.id) || undefined;
      // some servers repeat the id on every argument piece: only its first sighting is a header
      const isNew = id !== undefined && this.#indexById?.has(id) !== true;
      const index = this.#indexOf(call.index, id);
      const args = asString(fn.arguments) ?? '';
      if (isNew) {
        const name = asString(fn.name) ?? '';
        pieces.push({ index, id, type: 'function', function: { name, arguments: '' } });
      }
      if (args !== '') pieces.push({ index, function: { arguments: args } });
    }
    return pieces;
  }

  #indexOf(raw: unknown, id: string | undefined): number {
    let index: number;
    if (typeof raw === 'number') index = raw;
    else if (id !== undefined) index = this.#indexById?.get(id) ?? this.#indexById?.size ?? 0;
    else index = this.#lastIndex;
    if (id !== undefined) {
      this.#indexById ??= new Map();
      this.#indexById.set(id, index);
    }
    this.#lastIndex = index;
    return index;
  }
}

// One tool-call piece per chunk (a choice with at least one): the other delta fields ride on the
// first, the finish on the last.
function splitToolCalls(choice: Choice, calls: ToolCallDelta[]): Choice[] {
  const { index, delta, finish_reason } = choice;
  return calls.map((piece, i) =>
    newChoice(
      index,
      i === 0 ? { ...delta, tool_calls: [piece] } : { tool_calls: [piece] },
      i === calls.length - 1 ? finish_reason : null,
    ),
  );
}
