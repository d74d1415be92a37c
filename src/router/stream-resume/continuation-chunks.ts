import type { ChatCompletionChunk, ChunkDelta, Usage } from '../../types/index.js';
import type { DeliveredAnswer } from './delivered-answer.js';

const WHITESPACE = /\s/;

function isEmpty(delta: ChunkDelta): boolean {
  return (
    !delta.content &&
    !delta.reasoning_content &&
    !delta.tool_calls?.length &&
    !delta.thinking_blocks?.length &&
    delta.provider_specific_fields === undefined
  );
}

/**
 * Makes a continuation's chunks part of the stream the caller is reading: the original `id`,
 * `created` and `model`, no second `role`, the leading whitespace the caller already has left out,
 * chunks with nothing left dropped. Its usage is kept, not passed on: the caller gets one usage chunk
 * for the whole answer at the end.
 */
export class ContinuationChunks {
  /** The continuation's own usage, when its upstream reported one. */
  usage: Usage | undefined;
  #skip: number;

  constructor(
    private readonly answer: DeliveredAnswer,
    skipWhitespace: number,
  ) {
    this.#skip = skipWhitespace;
  }

  /** The chunk as the caller gets it, or undefined when nothing is left of it. */
  next(chunk: ChatCompletionChunk): ChatCompletionChunk | undefined {
    if (chunk.usage) this.usage = chunk.usage;
    const choices: ChatCompletionChunk['choices'] = [];
    for (const choice of chunk.choices) {
      const { role: _role, ...delta } = choice.delta;
      if (this.#skip > 0 && typeof delta.content === 'string') delta.content = this.#joined(delta.content);
      if (isEmpty(delta) && !choice.finish_reason) continue;
      choices.push({ ...choice, delta });
    }
    if (choices.length === 0) return undefined;
    const { usage: _usage, ...rest } = chunk;
    return { ...rest, id: this.answer.id, created: this.answer.created, model: this.answer.model, choices };
  }

  #joined(content: string): string {
    let i = 0;
    while (i < content.length && i < this.#skip && WHITESPACE.test(content[i]!)) i++;
    const rest = content.slice(i);
    this.#skip = rest.length > 0 ? 0 : this.#skip - i;
    return rest;
  }
}

/** The one usage chunk that closes a continued stream. */
export function usageChunk(answer: DeliveredAnswer, usage: Usage): ChatCompletionChunk {
  return {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.created,
    model: answer.model,
    choices: [],
    usage,
  };
}
