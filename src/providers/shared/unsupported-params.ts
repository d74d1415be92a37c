import { BadRequestError } from '../../errors/classes.js';
import type { ProviderTarget } from './provider-adapter.js';
import { errorOptions } from './provider-errors.js';

/**
 * OpenAI request fields with no counterpart on the Claude-type APIs (Anthropic Messages, Bedrock
 * Converse): sampling controls Claude lacks, output formats, audio, predicted outputs, web search,
 * storage and caching keys, and the deprecated `functions` / `function_call`.
 */
export const OPENAI_ONLY_PARAMS: ReadonlySet<string> = new Set([
  'n',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'response_format',
  'functions',
  'function_call',
  'prediction',
  'modalities',
  'audio',
  'store',
  'web_search_options',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
]);

/** Options of {@link withoutUnsupportedParams}. */
export interface UnsupportedParamsOptions {
  /**
   * The fields the provider has no counterpart for.
   * @default OPENAI_ONLY_PARAMS
   */
  unsupported?: ReadonlySet<string>;
  /** Fields the caller already judged unsupported for their value (Converse's `parallel_tool_calls: false`). */
  alsoRefused?: readonly string[];
}

/** Values that ask for nothing beyond the provider's default behaviour, so nothing is lost without them. */
function isNeutral(key: string, value: unknown): boolean {
  // parallel tool calls are on by default: `false` is the request that would be lost
  if (key === 'parallel_tool_calls') return value !== false;
  if (value === undefined || value === null || value === false) return true;
  if (key === 'n') return value === 1;
  if (key === 'response_format') return (value as { type?: unknown }).type === 'text';
  return false;
}

/**
 * The request fields without those the provider cannot take (the `drop_params` rule for request
 * fields). Set to a neutral value (`null`, `false`, `n: 1`, `response_format: { type: 'text' }`,
 * `parallel_tool_calls: true`) they are removed silently; set to anything else they are removed with
 * `dropParams`, and refused without.
 *
 * @throws BadRequestError naming every such field (and `alsoRefused`) when `dropParams` is not set.
 * @example
 * withoutUnsupportedParams({ model: 'm', seed: 7 }, target, true); // => { model: 'm' }
 * withoutUnsupportedParams({ model: 'm', seed: 7 }, target, false);
 * // throws BadRequestError: anthropic/claude-sonnet-4-5 does not support `seed`; set `drop_params: true` ...
 */
export function withoutUnsupportedParams(
  fields: Readonly<Record<string, unknown>>,
  target: ProviderTarget,
  dropParams: boolean | undefined,
  options: UnsupportedParamsOptions = {},
): Record<string, unknown> {
  const unsupported = options.unsupported ?? OPENAI_ONLY_PARAMS;
  const kept: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (!unsupported.has(key)) kept[key] = value;
    else if (!isNeutral(key, value)) refused.push(key);
  }
  refused.push(...(options.alsoRefused ?? []));
  if (refused.length > 0 && !dropParams) {
    throw new BadRequestError(
      `${target.provider}/${target.model} does not support \`${refused.join('`, `')}\`; ` +
        'set `drop_params: true` (in settings or on the request) to remove them',
      errorOptions(target),
    );
  }
  return kept;
}
