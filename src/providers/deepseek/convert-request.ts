import type { ChatCompletionRequest } from '../../types/index.js';
import { withoutReasoningControls } from '../shared/reasoning-controls.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';
import { deepseekReasoningParams } from './reasoning-params.js';

/**
 * What DeepSeek takes back from earlier assistant turns: `reasoning_content` (its thinking mode needs
 * it on tool-call turns and ignores it elsewhere), never Anthropic `thinking_blocks`.
 */
export const DEEPSEEK_REASONING_HISTORY: ReasoningHistorySupport = {
  thinkingBlocks: false,
  reasoningContent: true,
};

/** DeepSeek's chat body: the caller's reasoning controls as DeepSeek's own fields. */
export function adaptDeepseekChatBody(body: Record<string, unknown>): Record<string, unknown> {
  if (body.reasoning_effort === undefined && body.thinking === undefined) return body;
  const native = deepseekReasoningParams(
    body as Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>,
  );
  return { ...withoutReasoningControls(body), ...native };
}
