// The tokenizer of the pre-call checks and of counted usage (an answer whose upstream reported none).

const partText = (part: unknown): string => {
  try {
    const text = part && typeof part === 'object' ? (part as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? text : '';
  } catch {
    return ''; // a part that throws when read counts as nothing here; sending it fails, naming it
  }
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join(' ');
  return '';
}

// the tokenizer's tables are large: loaded on first use, so routers without pre-call checks never pay
let tokenizer: Promise<typeof import('gpt-tokenizer')> | undefined;
const loadTokenizer = () => {
  tokenizer ??= import('gpt-tokenizer');
  return tokenizer;
};

/**
 * The tokenizer's merges take quadratic time in the length of a run without spaces (50,000 `x` take
 * seconds, 200,000 CJK characters minutes): text is counted in slices this long, which bounds the
 * work to linear time and adds at most a token per slice to the count.
 */
const SLICE = 1000;

function countTokensLinear(countTokens: (text: string) => number, text: string): number {
  if (text.length <= SLICE) return countTokens(text);
  let total = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE, text.length);
    // never split a surrogate pair
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff && end < text.length) end += 1;
    total += countTokens(text.slice(start, end));
    start = end;
  }
  return total;
}

/**
 * The prompt's size in tokens (cl100k-style count of every message's text, plus a few tokens of
 * framing per message): close enough to keep a prompt off a deployment whose window is clearly too
 * small.
 */
export async function promptTokens(request: Readonly<Record<string, unknown>>): Promise<number> {
  const tokenizer = await loadTokenizer();
  const countTokens = (text: string) => countTokensLinear(tokenizer.countTokens, text);
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

/** The size of a text in tokens (the same count as `promptTokens`, without framing). */
export async function textTokens(text: string): Promise<number> {
  if (text.length === 0) return 0;
  const tokenizer = await loadTokenizer();
  return countTokensLinear(tokenizer.countTokens, text);
}
