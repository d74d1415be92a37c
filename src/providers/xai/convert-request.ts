import type { ChatCompletionRequest } from '../../types/index.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';
import { withoutReasoningControls } from '../shared/reasoning-controls.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';
import { xaiEffortSupport, xaiReasoningParams } from './reasoning-params.js';

/**
 * Earlier assistant turns may carry `reasoning_content` (grok answers with it, and callers append the
 * answer to the history) but never `thinking_blocks`.
 */
export const XAI_REASONING_HISTORY: ReasoningHistorySupport = {
  thinkingBlocks: false,
  reasoningContent: true,
};

/**
 * xAI's Chat Completions has no message field for earlier reasoning (it documents reasoning as output
 * only), so `reasoning_content` is left off the wire: the model never needed it back.
 */
export function adaptXaiHistoryMessage(wire: Record<string, unknown>): Record<string, unknown> {
  if (wire.reasoning_content === undefined) return wire;
  const { reasoning_content: _reasoning, ...rest } = wire;
  return rest;
}

const isReasoningModel = (model: string): boolean =>
  !model.includes('non-reasoning') && /^grok-(3-mini|4|code)/.test(model);

// xAI answers 400 when reasoning models get these sampling fields.
const REASONING_MODEL_REJECTS = ['presence_penalty', 'frequency_penalty', 'stop'] as const;

function accepted(model: string, effort: string): boolean | undefined {
  const support = xaiEffortSupport(model);
  if (support.kind === 'rejects') return false;
  return support.kind === 'accepts' ? support.values.includes(effort) : undefined;
}

/**
 * xAI's chat body: reasoning controls as `reasoning_effort` for the model. With `drop_params`, an
 * effort the model refuses (any effort on grok-4-0709 or grok-4-fast, `none` on grok-3-mini) and the
 * sampling fields reasoning models refuse are removed; without it they are sent, and xAI's error
 * comes back as is.
 */
export function adaptXaiChatBody(
  body: Record<string, unknown>,
  target: ProviderTarget,
  options: CallOptions,
): Record<string, unknown> {
  let out = body;
  if (body.reasoning_effort !== undefined || body.thinking !== undefined) {
    const controls = body as Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>;
    const { reasoning_effort: effort } = xaiReasoningParams(controls, target.model);
    out = withoutReasoningControls(body);
    if (effort && !(options.dropParams && accepted(target.model, effort) === false))
      out.reasoning_effort = effort;
  }
  if (options.dropParams && isReasoningModel(target.model)) {
    if (out === body) out = { ...body };
    for (const key of REASONING_MODEL_REJECTS) delete out[key];
  }
  return out;
}
