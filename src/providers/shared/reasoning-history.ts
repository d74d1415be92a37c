import { BadRequestError } from '../../errors/classes.js';
import type { ChatMessage } from '../../types/index.js';
import type { ProviderTarget } from './provider-adapter.js';

/** Which reasoning fields of earlier assistant turns a provider can take back. */
export interface ReasoningHistorySupport {
  /** Anthropic-type `thinking_blocks` (with signatures). */
  thinkingBlocks: boolean;
  /** Plain `reasoning_content` text (deepseek takes it back on tool-call turns). */
  reasoningContent: boolean;
}

type ReasoningField = 'thinking_blocks' | 'reasoning_content';

const NONE: readonly ReasoningField[] = [];

/** The reasoning fields of a message the provider cannot take (most messages: none, no allocation). */
function unsupported(m: ChatMessage, support: ReasoningHistorySupport): readonly ReasoningField[] {
  if (m.role !== 'assistant') return NONE;
  const blocks = !support.thinkingBlocks && m.thinking_blocks && m.thinking_blocks.length > 0;
  const text = !support.reasoningContent && typeof m.reasoning_content === 'string';
  if (!blocks && !text) return NONE;
  const fields: ReasoningField[] = [];
  if (blocks) fields.push('thinking_blocks');
  if (text) fields.push('reasoning_content');
  return fields;
}

/**
 * Applies the `drop_params` rule (spec 4.1 rule 3) to a conversation: assistant messages carrying
 * reasoning fields the provider cannot take are stripped of them when `dropParams` is set, and fail
 * with a BadRequestError that says to set it otherwise. Returns the messages unchanged (same array)
 * when nothing needs removing.
 */
export function applyReasoningHistory(
  messages: readonly ChatMessage[],
  support: ReasoningHistorySupport,
  target: ProviderTarget,
  dropParams: boolean | undefined,
): ChatMessage[] {
  let found: readonly ReasoningField[] | undefined;
  for (const m of messages) {
    const fields = unsupported(m, support);
    if (fields.length > 0) {
      found = fields;
      break;
    }
  }
  if (!found) return messages as ChatMessage[];
  if (!dropParams) {
    throw new BadRequestError(
      `${target.provider}/${target.model} cannot take \`${found.join('` or `')}\` in earlier assistant messages; ` +
        'set `drop_params: true` (in settings or on the request) to remove them',
      { provider: target.provider, model: target.model, modelId: target.modelId },
    );
  }
  return messages.map((m) => {
    const fields = unsupported(m, support);
    if (fields.length === 0) return m;
    const copy = { ...m };
    for (const field of fields) delete copy[field];
    return copy;
  });
}
