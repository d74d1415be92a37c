import type { ChatCompletionRequest } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
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

/** DeepSeek's own API (not a proxy in front of it): where the beta path exists. */
const DEEPSEEK_API = /^https:\/\/api\.deepseek\.com(?:\/v1)?\/?$/;
const BETA_CHAT = 'beta/chat/completions';

/** Whether a chat body ends in an assistant prefix (`prefix: true`): DeepSeek's chat prefix completion. */
function endsInPrefix(body: Record<string, unknown>): boolean {
  const messages = body.messages;
  const last = Array.isArray(messages)
    ? (messages[messages.length - 1] as Record<string, unknown>)
    : undefined;
  return last?.role === 'assistant' && last.prefix === true;
}

/**
 * DeepSeek serves chat prefix completion on its beta API only ("prefix is only available when using
 * beta api"): such a request to DeepSeek's own API goes to `https://api.deepseek.com/beta`. An
 * `api_base` elsewhere (a proxy, or `.../beta` itself) is used as given.
 */
export function deepseekChatPath(body: Record<string, unknown>, target: ProviderTarget): string {
  return endsInPrefix(body) && DEEPSEEK_API.test(target.apiBase ?? '') ? BETA_CHAT : 'chat/completions';
}

/** DeepSeek's URLs: `{api_base}/{path}`, the beta path on DeepSeek's own host (without `/v1`). */
export function deepseekUrl(target: ProviderTarget, path: string): string {
  return path === BETA_CHAT ? `https://api.deepseek.com/${BETA_CHAT}` : `${target.apiBase}/${path}`;
}
