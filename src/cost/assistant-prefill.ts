/**
 * Claude models from 4.6 on refuse a trailing assistant message ("This model does not support
 * assistant message prefill"): major and minor version of `claude-<family>-<major>[-<minor>]`, the
 * minor left out of a dated snapshot (`claude-opus-4-20250514` is 4.0).
 */
const CLAUDE_VERSION = /claude-(?:opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2}))?(?!\d)/;

/** Families that continue a trailing assistant message: Claude, DeepSeek (`prefix: true`), Mistral. */
const PREFILL_FAMILIES =
  /claude|deepseek-(?:chat|reasoner|coder)|mistral|codestral|ministral|magistral|devstral/;

/**
 * Whether a model continues a trailing assistant message (assistant prefill) by default: Claude before
 * 4.6 (on Anthropic, Bedrock and Vertex alike), DeepSeek's chat models and Mistral's. OpenAI, Gemini,
 * xAI and the rest answer anew, or refuse. A deployment's `model_info.supports_assistant_prefill`
 * overrides this; `stream_resume` continues a broken stream only where it is true.
 *
 * The model facts of the cost map are looked up by name (a provider prefix, Bedrock and Vertex
 * version suffixes and dated snapshots are tolerated); this is the one place that knows this fact.
 *
 * @example supportsAssistantPrefill('anthropic/claude-sonnet-4-5') // true
 * @example supportsAssistantPrefill('claude-opus-4-6') // false
 */
export function supportsAssistantPrefill(model: string): boolean {
  const name = model.toLowerCase();
  if (!PREFILL_FAMILIES.test(name)) return false;
  const claude = CLAUDE_VERSION.exec(name);
  if (!claude) return true;
  const major = Number(claude[1]);
  const minor = Number(claude[2] ?? 0);
  return major < 4 || (major === 4 && minor < 6);
}
