import type { ChatCompletionChunk, ChunkDelta, FinishReason, ThinkingBlock } from '../../types/index.js';

type Choice = ChatCompletionChunk['choices'][number];

// A stream's chunks, choices and common deltas are made by constructors, not object literals. V8
// tracks where each literal is made (its allocation site), and once most of a site's objects have
// lived through a young-generation collection, it allocates that site's objects in the old
// generation from then on ("pretenuring"), a decision it rarely revisits. A stream's chunks can live
// through one, waiting in a reader's queue while many streams are read at once (or while the code is
// still warming up), and after such a decision every chunk of every later stream died in the old
// generation: 1.2 to 4.8 KiB a streamed call promoted instead of under 1, and full collections to
// free them, in most runs of the bench's library streams at concurrency 50 on Node 20. Objects made
// by `new` have no allocation site. The constructors' prototype is Object.prototype, so that a chunk
// is still a plain object to whoever reads it (`Object.getPrototypeOf(chunk) === Object.prototype`).

interface ChunkFields {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint?: string | null;
  choices: Choice[];
}

function PlainChunk(
  this: ChunkFields,
  id: string,
  created: number,
  model: string,
  choices: Choice[],
  fingerprint: string | null | undefined,
): void {
  this.id = id;
  this.object = 'chat.completion.chunk';
  this.created = created;
  this.model = model;
  if (fingerprint !== undefined) this.system_fingerprint = fingerprint;
  this.choices = choices;
}
PlainChunk.prototype = Object.prototype;

function PlainChoice(this: Choice, index: number, delta: ChunkDelta, finish: FinishReason | null): void {
  this.index = index;
  this.delta = delta;
  this.finish_reason = finish;
}
PlainChoice.prototype = Object.prototype;

const Chunk = PlainChunk as unknown as new (...args: Parameters<typeof PlainChunk>) => ChatCompletionChunk;
const ChoiceObject = PlainChoice as unknown as new (...args: Parameters<typeof PlainChoice>) => Choice;

/**
 * A `chat.completion.chunk` (a plain object, made without an allocation site V8 could pretenure).
 * `system_fingerprint` is set only when given.
 */
export function newChunk(
  id: string,
  created: number,
  model: string,
  choices: Choice[],
  fingerprint?: string | null,
): ChatCompletionChunk {
  return new Chunk(id, created, model, choices, fingerprint);
}

/** One choice of a chunk (a plain object, as `newChunk`'s). */
export function newChoice(index: number, delta: ChunkDelta, finish: FinishReason | null): Choice {
  return new ChoiceObject(index, delta, finish);
}

function TextDelta(this: ChunkDelta, text: string): void {
  this.content = text;
}
TextDelta.prototype = Object.prototype;
const NewTextDelta = TextDelta as unknown as new (text: string) => ChunkDelta;

/** `{ content: text }`, a stream's common delta (a plain object, as `newChunk`'s). */
export function textDelta(text: string): ChunkDelta {
  return new NewTextDelta(text);
}

function ThinkingPiece(this: ThinkingBlock, thinking: string): void {
  this.type = 'thinking';
  this.thinking = thinking;
}
ThinkingPiece.prototype = Object.prototype;
const NewThinkingPiece = ThinkingPiece as unknown as new (thinking: string) => ThinkingBlock;

function ReasoningDelta(this: ChunkDelta, text: string, block: boolean): void {
  this.reasoning_content = text;
  if (block) this.thinking_blocks = Array.of<ThinkingBlock>(new NewThinkingPiece(text));
}
ReasoningDelta.prototype = Object.prototype;
const NewReasoningDelta = ReasoningDelta as unknown as new (text: string, block: boolean) => ChunkDelta;

/**
 * `{ reasoning_content: text }`, with `thinking_blocks: [{ type: 'thinking', thinking: text }]` when
 * `block` (Anthropic-type reasoning): a reasoning stream's common delta (plain objects, as
 * `newChunk`'s).
 */
export function reasoningDelta(text: string, block: boolean): ChunkDelta {
  return new NewReasoningDelta(text, block);
}

/** A chunk's list of one choice (`Array.of`: an array literal has an allocation site too). */
export function oneChoice(index: number, delta: ChunkDelta, finish: FinishReason | null): Choice[] {
  return Array.of(newChoice(index, delta, finish));
}
