import type { RouterError } from '../../errors/router-error.js';
import type { ChatCompletionChunk } from '../../types/index.js';

/**
 * What a stream has given its caller so far, chunk by chunk: the identity its chunks carry, the text
 * (and reasoning) of choice 0, whether a tool call or another choice began, and whether the answer
 * finished. Decides whether a broken stream may be continued from it.
 */
export class DeliveredAnswer {
  /** The stream's `id`, `created` and `model`: every chunk of a continuation carries them too. */
  readonly id: string;
  readonly created: number;
  readonly model: string;
  /** The content text given so far (choice 0). */
  text = '';
  /** The reasoning text given so far (choice 0): counted, never continued. */
  reasoning = '';
  #toolCall = false;
  #otherChoice = false;
  #finished = false;

  constructor(first: ChatCompletionChunk) {
    this.id = first.id;
    this.created = first.created;
    this.model = first.model;
    this.record(first);
  }

  /** Whether choice 0 has its `finish_reason`: the answer is whole, whatever comes after. */
  get finished(): boolean {
    return this.#finished;
  }

  record(chunk: ChatCompletionChunk): void {
    for (const choice of chunk.choices) {
      if (choice.index !== 0) {
        this.#otherChoice = true;
        continue;
      }
      const { delta } = choice;
      if (typeof delta.content === 'string') this.text += delta.content;
      if (typeof delta.reasoning_content === 'string') this.reasoning += delta.reasoning_content;
      if ((delta.tool_calls?.length ?? 0) > 0) this.#toolCall = true;
      if (choice.finish_reason) this.#finished = true;
    }
  }

  /**
   * Whether a stream that broke with `error` may be continued from here: the deployment failed (a
   * retryable error: cut, stalled, truncated, overloaded), the answer is unfinished, one choice only,
   * and what was given is content text, not a tool call in progress nor reasoning alone.
   */
  continuable(error: RouterError): boolean {
    return (
      error.retryable &&
      !this.#finished &&
      !this.#toolCall &&
      !this.#otherChoice &&
      this.text.trimEnd().length > 0
    );
  }
}
