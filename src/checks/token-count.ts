// The tokenizer of the pre-call checks and of counted usage (an answer whose upstream reported none).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { gptTokenizer } from '../peers/gpt-tokenizer.js';
import { estimateTokens } from './token-estimate.js';

/** A content part's text; for an item that holds content (a Responses API message), that content's. */
const partText = (part: unknown, depth: number): string => {
  try {
    if (!part || typeof part !== 'object') return '';
    const { text, content } = part as { text?: unknown; content?: unknown };
    if (typeof text === 'string') return text;
    return depth < 2 && content !== undefined ? textOf(content, depth + 1) : '';
  } catch {
    return ''; // a part that throws when read counts as nothing here; sending it fails, naming it
  }
};

function textOf(content: unknown, depth = 0): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => partText(part, depth)).join(' ');
  return partText(content, depth);
}

/**
 * The tokenizer's merges take quadratic time in the length of a run without spaces (50,000 `x` take
 * seconds, 200,000 CJK characters minutes): text is counted in slices this long, which bounds the
 * work to linear time and adds at most a token per slice to the count.
 */
const SLICE = 1000;

/** Where the slice of `text` from `start`, `size` characters long, ends: never within a surrogate pair. */
function sliceEnd(text: string, start: number, size: number): number {
  const end = Math.min(start + size, text.length);
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff && end < text.length ? end + 1 : end;
}

function countTokensLinear(countTokens: (text: string) => number, text: string): number {
  if (text.length <= SLICE) return countTokens(text);
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, SLICE);
    total += countTokens(text.slice(start, end));
    start = end;
  }
  return total;
}

type CountTokens = (text: string) => number;

/**
 * Text longer than this is counted in steps of this many characters (about 2 ms each), the event loop
 * let run between them: a 10 MB prompt takes about 300 ms to count, which other calls would otherwise
 * wait out.
 */
const STEP_CHARS = 64 * SLICE;

/** `countTokens(text)`, in steps for a long text (`STEP_CHARS`); at once, without a promise, for others. */
function countText(countTokens: CountTokens, text: string): number | Promise<number> {
  return text.length <= STEP_CHARS ? countTokens(text) : countInSteps(countTokens, text);
}

async function countInSteps(countTokens: CountTokens, text: string): Promise<number> {
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, STEP_CHARS);
    total += countTokens(text.slice(start, end));
    start = end;
    if (start < text.length) await nextTurn();
  }
  return total;
}

const exactCounter =
  (tokenizer: typeof import('gpt-tokenizer')): CountTokens =>
  (text) =>
    countTokensLinear(tokenizer.countTokens, text);

/**
 * How text is counted: gpt-tokenizer's exact o200k_base count when that optional package is installed
 * (its tables, 30 MB, are loaded on the first count, so routers that never count never pay), else
 * `estimateTokens`. A tokenizer that fails to load is not a failed call: the estimate counts.
 */
function tokenCounter(): CountTokens | Promise<CountTokens> {
  const loaded = gptTokenizer.module;
  if (loaded) return exactCounter(loaded);
  if (!gptTokenizer.installed()) return estimateTokens;
  return gptTokenizer.load('token counting').then(exactCounter, () => estimateTokens);
}

/**
 * Loads the exact counter now, when gpt-tokenizer is installed, instead of on the first count: the
 * import parses its 30 MB of tables on the event loop (a few hundred ms, more on a busy machine), a
 * pause every call in flight would share, and work a shutdown would wait on for a cut stream's row.
 * A server calls it at start; the counts are the same either way.
 *
 * @returns `'exact'` when gpt-tokenizer counts, `'estimate'` when it is not installed or fails to
 * load (`estimateTokens` counts then).
 */
export async function loadTokenCounter(): Promise<'exact' | 'estimate'> {
  return (await tokenCounter()) === estimateTokens ? 'estimate' : 'exact';
}

/**
 * The prompt's size in tokens (o200k_base count of every message's text, plus a few tokens of framing
 * per message; an estimate without gpt-tokenizer): close enough to keep a prompt off a deployment whose
 * window is clearly too small, and to charge an answer whose upstream reported no usage.
 */
export async function promptTokens(request: Readonly<Record<string, unknown>>): Promise<number> {
  const countTokens = await tokenCounter();
  const messages = request.messages;
  const input = request.input ?? request.prompt;
  const inMessages = Array.isArray(messages);
  const items: readonly unknown[] = inMessages ? messages : Array.isArray(input) ? input : [input];
  let total = inMessages ? 4 * items.length : 0;
  // characters counted since the event loop last ran: many medium texts block as one long one does
  let run = 0;
  for (const item of items) {
    const text = textOf(inMessages ? (item as { content?: unknown }).content : item);
    const counted = countText(countTokens, text);
    total += typeof counted === 'number' ? counted : await counted;
    run += text.length;
    if (run > STEP_CHARS) {
      run = 0;
      await nextTurn();
    }
  }
  return total;
}

/** The size of a text in tokens (the same count as `promptTokens`, without framing). */
export async function textTokens(text: string): Promise<number> {
  if (text.length === 0) return 0;
  return countText(await tokenCounter(), text);
}
