import type { ChatCompletionChunk, Usage } from '@svc/router';
import { chunkText, countedUsage } from '@svc/router';
import type { Charge } from './call-ledger.js';

/**
 * What of a streamed answer reached the client, and what it is charged: the upstream's usage when its
 * usage chunk came (whether or not the client was still there), else the counted tokens of the prompt
 * and of the text whose events were written while the client was there.
 */
export class DeliveredAnswer {
  // the delivered text is kept (not counted chunk by chunk): nearly every stream ends with the
  // upstream's usage, and then it is never tokenized
  #text = '';
  /** The upstream's usage, once its usage chunk came. */
  usage: Usage | undefined;

  /** A chunk came from the upstream (delivered or not): its usage, when it has one, is the answer's. */
  arrived(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.usage = chunk.usage;
  }

  /** A chunk's events were written while the client was there: its text reached the client. */
  delivered(chunk: ChatCompletionChunk): void {
    const text = chunkText(chunk);
    if (text) this.#text += text;
  }

  /** The text delivered so far. */
  get text(): string {
    return this.#text;
  }

  /**
   * What the answer is charged: the upstream's usage, else the counted tokens of `request`'s prompt and
   * the delivered text; `costOf` prices it (the stream's `costOf`: its deployment's prices). At once
   * when the upstream reported usage; a promise only when the tokens must be counted.
   */
  charge(
    request: Readonly<Record<string, unknown>>,
    costOf: (usage: Usage) => number,
  ): Charge | Promise<Charge> {
    if (this.usage) return { usage: this.usage, cost: costOf(this.usage), estimated: false };
    return countedUsage(request, this.#text).then((usage) => ({
      usage,
      cost: costOf(usage),
      estimated: true,
    }));
  }
}
