// Pieces roughly as the o200k_base pre-tokenizer cuts text, each with its own cost, measured against
// gpt-tokenizer: a run of one CJK script; a word (capitals then lower case, as o200k_base cuts
// `contextWindowOf` into `context`, `Window`, `Of`) with the punctuation mark before it, which usually
// merges into it; a run of capitals; a word of an uncased script; digits (with the space before them);
// whitespace; punctuation.
const CJK = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}ー`;
const MARK = String.raw`[^\s\p{L}\p{N}]`;
const PIECE = new RegExp(
  [
    String.raw`(\p{sc=Han}+)`,
    String.raw`([\p{sc=Hiragana}\p{sc=Katakana}ー]+)`,
    String.raw`(\p{sc=Hangul}+)`,
    String.raw`${MARK}?(\p{Lu}*)([\p{Ll}\p{M}']+)`,
    String.raw`${MARK}?(\p{Lu}+)`,
    String.raw`(${MARK}?(?:(?![${CJK}])[\p{L}\p{M}])+)`,
    String.raw`( ?\p{N}+)`,
    String.raw`(\s+)`,
    `(${MARK}+)`,
  ].join('|'),
  'gu',
);

/** A word: one token up to this many letters (Latin; other alphabets fewer), then one per 4 more. */
const LATIN_WHOLE = 7;
const OTHER_WHOLE = 5;
const CHARS_PER_TOKEN = 4;
/** Tokens per character of each CJK script. */
const HAN_PER_CHAR = 0.75;
const KANA_PER_CHAR = 0.65;
const HANGUL_PER_CHAR = 0.7;
/** o200k_base splits digit runs into groups of up to three. */
const DIGITS_PER_TOKEN = 3;
/** Punctuation runs merge often (`":"`, `});`, `://`). */
const PUNCTUATION_PER_TOKEN = 3;
const LATIN = /\p{sc=Latin}/u;

const wordTokens = (length: number, whole: number): number =>
  length <= whole ? 1 : 1 + (length - whole) / CHARS_PER_TOKEN;

/** Capitals: an acronym (`HTTP`) is one token; a longer run (base64, a key) about one per two. */
const capitalTokens = (length: number): number => (length <= 4 ? 1 : Math.ceil(length / 2));

function pieceTokens(match: RegExpMatchArray): number {
  const [text, han, kana, hangul, capitals, lower, acronym, other, digits, space] = match;
  if (han) return han.length * HAN_PER_CHAR;
  if (kana) return kana.length * KANA_PER_CHAR;
  if (hangul) return hangul.length * HANGUL_PER_CHAR;
  if (lower) {
    const whole = LATIN.test(lower) ? LATIN_WHOLE : OTHER_WHOLE;
    const caps = capitals ?? '';
    // `Window` is one word; `JSONParse` an acronym and a word
    return caps.length <= 1
      ? wordTokens(caps.length + lower.length, whole)
      : capitalTokens(caps.length - 1) + wordTokens(1 + lower.length, whole);
  }
  if (acronym) return capitalTokens(acronym.length);
  if (other) return wordTokens(other.length, OTHER_WHOLE);
  if (digits)
    return (digits.startsWith(' ') ? 1 : 0) + Math.ceil(digits.trimStart().length / DIGITS_PER_TOKEN);
  // a single space belongs to the next word; a line break is a token, and the indentation after it one more
  if (space) return space === ' ' ? 0 : /\n[ \t]{2,}$/.test(space) ? 2 : 1;
  return Math.ceil(text.length / PUNCTUATION_PER_TOKEN);
}

/**
 * An estimate of `text`'s o200k_base token count without a tokenizer's tables: one pass of one regular
 * expression, linear in the text. See test/checks/token-estimate.test.ts for how close it is on a fixed
 * sample; install gpt-tokenizer for exact counts.
 */
export function estimateTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(PIECE)) total += pieceTokens(match);
  return Math.round(total);
}
