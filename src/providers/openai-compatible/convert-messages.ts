import type { ChatMessage, ToolCall } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { applyReasoningHistory, type ReasoningHistorySupport } from '../shared/reasoning-history.js';

/** Adds provider fields to one assistant wire message (see `OpenAICompatibleOptions.adaptHistoryMessage`). */
export type HistoryMessageHook = (
  wire: Record<string, unknown>,
  message: ChatMessage,
  target: ProviderTarget,
) => Record<string, unknown>;

/** Options of `toWireMessages`. */
export interface WireMessageOptions {
  support: ReasoningHistorySupport;
  dropParams: boolean | undefined;
  adapt?: HistoryMessageHook | undefined;
}

const isEmpty = (v: unknown): boolean => v === null || (Array.isArray(v) && v.length === 0);

// Our response envelope carries `index` and `provider_specific_fields` on tool calls; requests take neither.
function wireToolCall(call: ToolCall): Record<string, unknown> {
  const { index: _index, provider_specific_fields: _fields, ...wire } = call;
  return wire;
}

function needsWork(m: ChatMessage, adapt: HistoryMessageHook | undefined): boolean {
  if (m.provider_specific_fields !== undefined) return true;
  if (m.role !== 'assistant') return false;
  if (adapt) return true;
  return (
    m.function_call === null ||
    isEmpty(m.tool_calls) ||
    isEmpty(m.thinking_blocks) ||
    m.reasoning_content === null ||
    (m.tool_calls?.some((c) => c.index !== undefined || c.provider_specific_fields !== undefined) ?? false)
  );
}

/**
 * One message as the wire takes it. A caller appends our own response messages to the history, so
 * the envelope's `function_call: null`, `tool_calls: null`, tool-call `index` and our
 * `provider_specific_fields` are removed: they are not request fields and strict servers reject them.
 */
function wireMessage(m: ChatMessage, target: ProviderTarget, adapt: HistoryMessageHook | undefined) {
  const { provider_specific_fields: _fields, ...rest } = m;
  const wire: Record<string, unknown> = rest;
  if (m.role !== 'assistant') return wire;
  for (const key of ['function_call', 'tool_calls', 'thinking_blocks', 'reasoning_content'] as const)
    if (isEmpty(wire[key])) delete wire[key];
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)
    wire.tool_calls = m.tool_calls.map(wireToolCall);
  return adapt ? adapt(wire, m, target) : wire;
}

/**
 * The conversation as the provider takes it: reasoning fields of earlier turns the provider cannot
 * take fail the call (or are dropped with `drop_params`, spec 4.1 rule 3), and envelope-only fields
 * are removed. Returns the caller's array itself when nothing changes, so the common call copies
 * nothing.
 */
export function toWireMessages(
  messages: readonly ChatMessage[],
  target: ProviderTarget,
  options: WireMessageOptions,
): unknown[] {
  const kept = applyReasoningHistory(messages, options.support, target, options.dropParams);
  let out: unknown[] | undefined;
  for (let i = 0; i < kept.length; i++) {
    const m = kept[i]!;
    if (!out && !needsWork(m, options.adapt)) continue;
    out ??= kept.slice(0, i);
    out.push(needsWork(m, options.adapt) ? wireMessage(m, target, options.adapt) : m);
  }
  return out ?? kept;
}
