import type { ToolDefinition } from '../../types/index.js';
import { asRecord, asString } from '../shared/json.js';
import type { AnthropicBlock } from './convert-content.js';

const EMPTY_SCHEMA = { type: 'object', properties: {} };

/**
 * OpenAI function tools as Anthropic tools (`{ name, description, input_schema }`). A tool that is not
 * `type: 'function'` is taken to be an Anthropic-native tool (web search, code execution, ...) and
 * passes through as given. Undefined when there are no tools.
 */
export function toAnthropicTools(tools: readonly ToolDefinition[] | undefined): AnthropicBlock[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => {
    if (tool.type !== 'function') return tool as unknown as AnthropicBlock;
    const { name, description, parameters } = tool.function;
    const out: AnthropicBlock = { name };
    if (description !== undefined) out.description = description;
    // Anthropic requires a schema even for a tool without parameters
    out.input_schema = parameters ?? EMPTY_SCHEMA;
    return out;
  });
}

function choiceOf(choice: unknown): AnthropicBlock | undefined {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  const record = asRecord(choice);
  if (!record) return undefined;
  const named = asString(asRecord(record.function)?.name);
  if (record.type === 'function' && named !== undefined) return { type: 'tool', name: named };
  // already Anthropic-shaped ({ type: 'any' }, { type: 'tool', name })
  return { ...record };
}

/**
 * OpenAI `tool_choice` (auto / required / none / a named function) and `parallel_tool_calls: false` as
 * Anthropic's `tool_choice` (`auto` / `any` / `none` / `{ type: 'tool', name }` with
 * `disable_parallel_tool_use`). Undefined when there is nothing to say.
 */
export function toAnthropicToolChoice(
  choice: unknown,
  parallelToolCalls: unknown,
  hasTools: boolean,
): AnthropicBlock | undefined {
  let out = choiceOf(choice);
  if (parallelToolCalls === false && hasTools) {
    out ??= { type: 'auto' };
    if (out.type !== 'none') out.disable_parallel_tool_use = true;
  }
  return out;
}
