import { didYouMean } from '../config/did-you-mean.js';
import { BadRequestError } from '../errors/classes.js';
import { anthropicReasoningParams } from '../providers/anthropic/reasoning-params.js';
import { bedrockReasoningParams } from '../providers/bedrock/reasoning-params.js';
import { deepseekReasoningParams } from '../providers/deepseek/reasoning-params.js';
import { geminiReasoningParams } from '../providers/gemini/reasoning-params.js';
import { openaiReasoningParams } from '../providers/openai/reasoning-params.js';
import { openrouterReasoningParams } from '../providers/openrouter/reasoning-params.js';
import { xaiReasoningParams } from '../providers/xai/reasoning-params.js';
import type { ReasoningEffort, ThinkingParam } from '../types/index.js';
import { PROVIDER_PREFIXES } from '../types/index.js';

/** The request fields that decide reasoning. `model` (prefixed or not) matters to Gemini, Vertex, Bedrock and xAI. */
export interface ReasoningRequest {
  model?: string;
  reasoning_effort?: ReasoningEffort;
  thinking?: ThinkingParam;
  max_tokens?: number;
  max_completion_tokens?: number;
}

const isClaude = (model: string) => /(^|[./])claude/i.test(model);
const withoutPrefix = (model: string | undefined) => (model ?? '').replace(/^[a-z_]+\//, '');

const TRANSLATIONS: Readonly<Record<string, (r: ReasoningRequest, model: string) => object>> = {
  anthropic: (r) => anthropicReasoningParams(r),
  gemini: (r, model) => geminiReasoningParams({ ...r, model }),
  vertex_ai: (r, model) =>
    isClaude(model) ? anthropicReasoningParams(r) : geminiReasoningParams({ ...r, model }),
  bedrock: (r, model) =>
    isClaude(model)
      ? bedrockReasoningParams(r)
      : // other Bedrock models take their own reasoning fields through Converse as given
        r.reasoning_effort || r.thinking
        ? { additionalModelRequestFields: { reasoning_effort: r.reasoning_effort, thinking: r.thinking } }
        : {},
  openai: (r) => openaiReasoningParams(r),
  azure: (r) => openaiReasoningParams(r),
  deepseek: (r) => deepseekReasoningParams(r),
  xai: (r, model) => xaiReasoningParams(r, model),
  openrouter: (r) => openrouterReasoningParams(r),
};

/**
 * The provider-native body fields for a request's `reasoning_effort` / `thinking` (CONTRACT 5.4): what
 * the router sends. `provider` is a provider name of CONTRACT 5.1 (`anthropic`, `gemini`, `vertex_ai`,
 * `bedrock`, `openai`, `azure`, `deepseek`, `xai`, `openrouter`) or a prefix alias (`google`, `vertexai`).
 * Pure. The mapping table is in docs/reasoning.md.
 *
 * @throws BadRequestError for an unknown provider (naming the closest) or an unknown `reasoning_effort`.
 * @example
 * toProviderReasoningParams('anthropic', { reasoning_effort: 'medium' });
 * // { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } }
 * toProviderReasoningParams('gemini', { model: 'gemini-2.5-flash', reasoning_effort: 'none' });
 * // { generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } } }
 */
export function toProviderReasoningParams(
  provider: string,
  request: ReasoningRequest,
): Record<string, unknown> {
  const name = PROVIDER_PREFIXES[provider] ?? provider;
  const translate = TRANSLATIONS[name];
  if (!translate) {
    throw new BadRequestError(
      `unknown provider \`${provider}\`${didYouMean(provider, Object.keys(TRANSLATIONS))}; expected one of ${Object.keys(TRANSLATIONS).join(', ')}`,
    );
  }
  return translate(request, withoutPrefix(request.model)) as Record<string, unknown>;
}
