import type { ChatCompletionRequest, ReasoningEffort } from '../../types/index.js';
import { effortForBudget } from '../shared/reasoning-controls.js';

/**
 * OpenAI's reasoning field for a request: `reasoning_effort` as the caller gave it (OpenAI's own
 * values, `none` and `minimal` included, pass through for the model to judge); an explicit
 * `thinking` wins: a budget becomes the effort of that size (up to 1024 `low`, up to 2048 `medium`,
 * more `high`), `disabled` sends nothing (the model's default). The result replaces the request's
 * `reasoning_effort` and `thinking`.
 *
 * @example openaiReasoningParams({ model: 'o3', messages: [], thinking: { type: 'enabled', budget_tokens: 2048 } })
 * // => { reasoning_effort: 'medium' }
 */
export function openaiReasoningParams(
  request: Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>,
): { reasoning_effort?: ReasoningEffort } {
  const { thinking, reasoning_effort: effort } = request;
  if (thinking && typeof thinking === 'object') {
    if (thinking.type === 'disabled') return {};
    if (typeof thinking.budget_tokens === 'number')
      return { reasoning_effort: effortForBudget(thinking.budget_tokens) };
  }
  return effort ? { reasoning_effort: effort } : {};
}

const REASONING = /^(o\d|gpt-5|codex)/;
const NOT_REASONING = /^(gpt-5[.\d]*-chat|gpt-4|gpt-3\.5|chatgpt-|ft:gpt-4|ft:gpt-3\.5|davinci|babbage)/;

/**
 * Whether an OpenAI model reasons (takes `reasoning_effort`): true for the o-series and gpt-5 family,
 * false for the chat models known not to, undefined for names it cannot tell (they are left alone).
 */
export function openaiModelReasons(model: string): boolean | undefined {
  if (NOT_REASONING.test(model)) return false;
  if (REASONING.test(model)) return true;
  return undefined;
}
