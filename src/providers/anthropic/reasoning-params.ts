import type { ThinkingParam } from '../../types/index.js';
import { type ClaudeReasoningInput, claudeThinking } from '../shared/reasoning-controls.js';

export { DEFAULT_CLAUDE_MAX_TOKENS as DEFAULT_MAX_TOKENS } from '../shared/reasoning-controls.js';

/** The request fields the translation reads (the caller's request over the deployment's defaults). */
export type AnthropicReasoningInput = ClaudeReasoningInput;

/** Anthropic's native fields for reasoning: always `max_tokens`, and `thinking` when set. */
export interface AnthropicReasoningParams {
  max_tokens: number;
  thinking?: ThinkingParam;
}

/**
 * Translates OpenAI-style reasoning fields into Anthropic's (CONTRACT 5.4; the rules are
 * `claudeThinking`'s): `thinking` wins over `reasoning_effort`, effort becomes a budget, and
 * `max_tokens` is raised above the budget when needed.
 *
 * @throws BadRequestError for a `reasoning_effort` outside none/minimal/low/medium/high.
 * @example
 * anthropicReasoningParams({ reasoning_effort: 'high', max_tokens: 1000 });
 * // { max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 4096 } }
 */
export function anthropicReasoningParams(input: AnthropicReasoningInput): AnthropicReasoningParams {
  const { maxTokens, thinking } = claudeThinking(input, 'anthropic');
  return thinking ? { max_tokens: maxTokens, thinking } : { max_tokens: maxTokens };
}
