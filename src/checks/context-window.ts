import { lookupModelPrice } from '../cost/lookup.js';
import { costModelName } from '../cost/response-cost.js';
import type { Deployment } from '../types/index.js';

/** A deployment's context window from the cost map (by `base_model`, else the model); undefined when unknown. */
export function contextWindowOf(deployment: Deployment): number | undefined {
  return lookupModelPrice(costModelName(deployment))?.max_input_tokens;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join(' ');
  }
  return '';
}

// the tokenizer's tables are large: loaded on first use, so routers without pre-call checks never pay
let tokenizer: Promise<typeof import('gpt-tokenizer')> | undefined;
const loadTokenizer = () => {
  tokenizer ??= import('gpt-tokenizer');
  return tokenizer;
};

/**
 * The prompt's size in tokens (cl100k-style count of every message's text, plus a few tokens of
 * framing per message): close enough to keep a prompt off a deployment whose window is clearly too
 * small.
 */
export async function promptTokens(request: Readonly<Record<string, unknown>>): Promise<number> {
  const { countTokens } = await loadTokenizer();
  const messages = request.messages;
  if (Array.isArray(messages)) {
    let total = 0;
    for (const m of messages) total += 4 + countTokens(textOf((m as { content?: unknown }).content));
    return total;
  }
  const input = request.input ?? request.prompt;
  return Array.isArray(input)
    ? input.reduce((n: number, x) => n + countTokens(textOf(x)), 0)
    : countTokens(textOf(input));
}
