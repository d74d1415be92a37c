import { BUILT_IN_PROVIDERS } from '../providers/registry.js';
import type { ReasoningRequest } from '../providers/shared/provider-adapter.js';

export type { ReasoningRequest } from '../providers/shared/provider-adapter.js';

/**
 * The provider-native body fields for a request's `reasoning_effort` / `thinking` (CONTRACT 5.4): what
 * the router sends. `provider` is a provider name of CONTRACT 5.1 (`anthropic`, `gemini`, `vertex_ai`,
 * `bedrock`, `openai`, `azure`, `deepseek`, `xai`, `openrouter`) or a prefix alias (`google`, `vertexai`).
 * Pure. Each built-in adapter declares its translation (`ProviderAdapter.reasoningParams`); the table
 * is in docs/reasoning.md. For the router's own adapters, ask their registry
 * (`createProviderRegistry([...]).reasoningParams(provider, request)`).
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
  return BUILT_IN_PROVIDERS.reasoningParams(provider, request);
}
