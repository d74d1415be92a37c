import type { ThinkingParam } from '../../types/index.js';
import { type ClaudeReasoningInput, claudeThinking } from '../shared/reasoning-controls.js';

export { DEFAULT_CLAUDE_MAX_TOKENS as DEFAULT_MAX_TOKENS } from '../shared/reasoning-controls.js';

/** The request fields the translation reads (the caller's request over the deployment's defaults). */
export type BedrockReasoningInput = ClaudeReasoningInput;

/** The Converse fields that carry a Claude model's reasoning settings. */
export interface BedrockReasoningParams {
  /** Present when thinking is enabled: Claude needs `maxTokens` above the thinking budget. */
  inferenceConfig?: { maxTokens: number };
  /** Claude's own `thinking` object, passed to the model through Converse. */
  additionalModelRequestFields?: { thinking: ThinkingParam };
}

/**
 * Translates OpenAI-style reasoning fields into Converse fields for a Claude model on Bedrock
 * (CONTRACT 5.4; the rules are `claudeThinking`'s): `thinking` goes into
 * `additionalModelRequestFields`, and with a budget `inferenceConfig.maxTokens` is raised above it.
 * `none` (or no reasoning field) returns `{}`. Only for Claude models: other Bedrock models take their
 * own reasoning fields through `additionalModelRequestFields` unchanged.
 *
 * @throws BadRequestError for a `reasoning_effort` outside none/minimal/low/medium/high.
 * @example
 * bedrockReasoningParams({ reasoning_effort: 'high', max_tokens: 1000 });
 * // { inferenceConfig: { maxTokens: 8192 },
 * //   additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } } }
 */
export function bedrockReasoningParams(input: BedrockReasoningInput): BedrockReasoningParams {
  const { maxTokens, thinking, budget } = claudeThinking(input, 'bedrock');
  if (!thinking) return {};
  if (budget === undefined) return { additionalModelRequestFields: { thinking } };
  return { inferenceConfig: { maxTokens }, additionalModelRequestFields: { thinking } };
}
