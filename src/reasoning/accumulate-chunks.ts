import type {
  AnyThinkingBlock,
  AssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChunkDelta,
  FinishReason,
  ToolCall,
  Usage,
} from '../types/index.js';

interface ChoiceState {
  content: string[];
  reasoning: string[];
  blocks: AnyThinkingBlock[];
  tools: Map<number, ToolCall>;
  finish: FinishReason | null;
  extra: Record<string, unknown> | undefined;
  role: boolean;
}

const newChoice = (): ChoiceState => ({
  content: [],
  reasoning: [],
  blocks: [],
  tools: new Map(),
  finish: null,
  extra: undefined,
  role: false,
});

/**
 * Adds a streamed thinking block piece: text pieces extend the open thinking block; a signature closes
 * it; a piece after a signed block (or a redacted block) starts a new one.
 */
export function addThinkingPiece(blocks: AnyThinkingBlock[], piece: AnyThinkingBlock): void {
  const last = blocks.at(-1);
  if (piece.type === 'redacted_thinking') {
    blocks.push({ ...piece });
    return;
  }
  if (last?.type === 'thinking' && !last.signature) {
    last.thinking += piece.thinking;
    if (piece.signature) last.signature = piece.signature;
    return;
  }
  blocks.push({
    type: 'thinking',
    thinking: piece.thinking,
    ...(piece.signature ? { signature: piece.signature } : {}),
  });
}

function addToolCalls(tools: Map<number, ToolCall>, deltas: NonNullable<ChunkDelta['tool_calls']>): void {
  for (const delta of deltas) {
    const known = tools.get(delta.index);
    if (!known) {
      tools.set(delta.index, {
        index: delta.index,
        id: delta.id ?? '',
        type: 'function',
        function: { name: delta.function?.name ?? '', arguments: delta.function?.arguments ?? '' },
        ...(delta.provider_specific_fields
          ? { provider_specific_fields: { ...delta.provider_specific_fields } }
          : {}),
      });
      continue;
    }
    if (delta.id) known.id = delta.id;
    if (delta.provider_specific_fields) {
      known.provider_specific_fields = {
        ...known.provider_specific_fields,
        ...delta.provider_specific_fields,
      };
    }
    if (delta.function?.name) known.function.name += delta.function.name;
    if (delta.function?.arguments) known.function.arguments += delta.function.arguments;
  }
}

/** Merges provider fields across chunks: arrays concatenate, other values take the latest. */
function mergeExtra(
  target: Record<string, unknown> | undefined,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const out = target ?? {};
  for (const [key, value] of Object.entries(extra)) {
    const prior = out[key];
    if (!Array.isArray(value)) out[key] = value;
    // appended in place (a copy per chunk was quadratic: OpenRouter sends reasoning_details with each
    // reasoning chunk, and 40,000 of them took 11 s); the array is our own copy, never a chunk's
    else if (Array.isArray(prior)) for (const item of value) prior.push(item);
    else out[key] = [...value];
  }
  return out;
}

function addDelta(state: ChoiceState, delta: ChunkDelta): void {
  if (delta.role) state.role = true;
  if (typeof delta.content === 'string') state.content.push(delta.content);
  if (typeof delta.reasoning_content === 'string') state.reasoning.push(delta.reasoning_content);
  if (delta.thinking_blocks) for (const piece of delta.thinking_blocks) addThinkingPiece(state.blocks, piece);
  if (delta.tool_calls) addToolCalls(state.tools, delta.tool_calls);
  if (delta.provider_specific_fields) state.extra = mergeExtra(state.extra, delta.provider_specific_fields);
}

function toChoice(index: number, state: ChoiceState): ChatCompletionChoice {
  const tools = [...state.tools.values()].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const message: AssistantMessage = {
    role: 'assistant',
    content: state.content.length > 0 || tools.length === 0 ? state.content.join('') : null,
    tool_calls: tools.length > 0 ? tools : null,
    function_call: null,
  };
  if (state.reasoning.length > 0) message.reasoning_content = state.reasoning.join('');
  if (state.blocks.length > 0) message.thinking_blocks = state.blocks;
  if (state.extra) message.provider_specific_fields = state.extra;
  return { index, finish_reason: state.finish, message };
}

/** Collects chunks into the parts of one completion. */
class Accumulator {
  readonly #choices = new Map<number, ChoiceState>();
  #first: ChatCompletionChunk | undefined;
  #usage: Usage | undefined;

  add(chunk: ChatCompletionChunk): void {
    this.#first ??= chunk;
    if (chunk.usage) this.#usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      let state = this.#choices.get(choice.index);
      if (!state) {
        state = newChoice();
        this.#choices.set(choice.index, state);
      }
      if (choice.delta) addDelta(state, choice.delta);
      if (choice.finish_reason) state.finish = choice.finish_reason;
    }
  }

  result(): ChatCompletion {
    const first = this.#first;
    const choices = [...this.#choices.entries()].sort(([a], [b]) => a - b).map(([i, s]) => toChoice(i, s));
    return {
      id: first?.id ?? '',
      object: 'chat.completion',
      created: first?.created ?? Math.floor(Date.now() / 1000),
      model: first?.model ?? '',
      system_fingerprint: first?.system_fingerprint ?? null,
      choices: choices.length > 0 ? choices : [toChoice(0, newChoice())],
      usage: this.#usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      service_tier: null,
    };
  }
}

/**
 * Turns a stream's chunks back into one chat completion: content and `reasoning_content` joined,
 * tool calls assembled by index, Anthropic-type `thinking_blocks` rebuilt with their signatures (a
 * signature closes its block), provider fields merged, the last finish reason and usage kept.
 *
 * Takes the chunks as an array (returns the completion) or as the stream itself (returns a Promise).
 *
 * @example
 * const stream = await router.acompletion({ model, messages, stream: true });
 * const message = (await accumulateChunks(stream)).choices[0].message;
 */
export function accumulateChunks(chunks: Iterable<ChatCompletionChunk>): ChatCompletion;
export function accumulateChunks(chunks: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletion>;
export function accumulateChunks(
  chunks: Iterable<ChatCompletionChunk> | AsyncIterable<ChatCompletionChunk>,
): ChatCompletion | Promise<ChatCompletion> {
  const accumulator = new Accumulator();
  if (Symbol.asyncIterator in chunks) {
    return (async () => {
      for await (const chunk of chunks) accumulator.add(chunk);
      return accumulator.result();
    })();
  }
  for (const chunk of chunks) accumulator.add(chunk);
  return accumulator.result();
}
