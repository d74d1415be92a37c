import type { ChatCompletionRequest, ChatMessage } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { withoutReasoningControls } from '../shared/reasoning-controls.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';
import { isAnthropicModel, reasoningDetailsOf } from './reasoning-details.js';
import { openrouterReasoningParams } from './reasoning-params.js';

/**
 * What OpenRouter takes back from earlier assistant turns: `reasoning_content` (sent as its `reasoning`)
 * for every model; `thinking_blocks` for Anthropic models only (sent as `reasoning_details`).
 */
export function openrouterReasoningHistory(target: ProviderTarget): ReasoningHistorySupport {
  return { thinkingBlocks: isAnthropicModel(target.model), reasoningContent: true };
}

/**
 * One assistant message of the history in OpenRouter's shape: the `reasoning_details` OpenRouter
 * answered (kept in `provider_specific_fields.reasoning_details`) go back verbatim, which signed and
 * encrypted reasoning needs; failing those, Anthropic thinking blocks are converted to them;
 * `reasoning_content` is sent as `reasoning`.
 */
export function adaptOpenrouterHistoryMessage(
  wire: Record<string, unknown>,
  message: ChatMessage,
  target: ProviderTarget,
): Record<string, unknown> {
  // OpenRouter continues a trailing assistant message as it is: no `prefix` field in its prefill form
  const { thinking_blocks: blocks, reasoning_content: reasoning, prefix: _prefix, ...rest } = wire;
  const details = message.provider_specific_fields?.reasoning_details;
  if (Array.isArray(details) && details.length > 0) rest.reasoning_details = details;
  else if (Array.isArray(blocks) && blocks.length > 0 && isAnthropicModel(target.model))
    rest.reasoning_details = reasoningDetailsOf(message.thinking_blocks ?? []);
  if (typeof reasoning === 'string') rest.reasoning = reasoning;
  return rest;
}

/**
 * OpenRouter's chat body: the caller's reasoning controls as OpenRouter's `reasoning` object. A
 * `reasoning` object the caller wrote in OpenRouter's own terms wins.
 */
export function adaptOpenrouterChatBody(body: Record<string, unknown>): Record<string, unknown> {
  if (body.reasoning_effort === undefined && body.thinking === undefined) return body;
  const controls = body as Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>;
  const rest = withoutReasoningControls(body);
  return rest.reasoning === undefined ? { ...rest, ...openrouterReasoningParams(controls) } : rest;
}
