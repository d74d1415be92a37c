import type { ToolDefinition } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';

/** One Converse `toolSpec`. */
export interface BedrockToolSpec {
  toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } };
}

/** Converse `toolChoice`: `{ auto: {} }`, `{ any: {} }` or `{ tool: { name } }`. */
export type BedrockToolChoice = { auto: object } | { any: object } | { tool: { name: string } };

/** Converse `toolConfig`. */
export interface BedrockToolConfig {
  tools: BedrockToolSpec[];
  toolChoice?: BedrockToolChoice;
}

function toToolSpec(tool: ToolDefinition): BedrockToolSpec {
  const { name, description, parameters } = tool.function;
  // Converse requires a schema; a tool without parameters takes an empty object
  const json = parameters ?? { type: 'object', properties: {} };
  return {
    toolSpec: { name, ...(description !== undefined ? { description } : {}), inputSchema: { json } },
  };
}

function toToolChoice(choice: unknown, target: ProviderTarget): BedrockToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  const name = (choice as { function?: { name?: unknown } }).function?.name;
  if (typeof name === 'string') return { tool: { name } };
  throw badRequest(target, `tool_choice ${JSON.stringify(choice)} is not auto, required, none or a function`);
}

/**
 * `tools` and `tool_choice` as a Converse `toolConfig`: each function becomes a `toolSpec` with its
 * JSON schema under `inputSchema.json`; `auto` -> `{ auto: {} }`, `required` -> `{ any: {} }`, a named
 * function -> `{ tool: { name } }`. Converse has no `none`: with `tool_choice: 'none'` the tools are left
 * out, unless the history holds tool calls, which Bedrock only accepts with a `toolConfig` (then the
 * tools are sent without a choice).
 *
 * @throws BadRequestError for a tool_choice of another shape, or one naming a function with no tools.
 */
export function toToolConfig(
  tools: readonly ToolDefinition[] | undefined,
  choice: unknown,
  historyHasTools: boolean,
  target: ProviderTarget,
): BedrockToolConfig | undefined {
  if (!tools || tools.length === 0) {
    if (choice !== undefined && choice !== null && choice !== 'none' && choice !== 'auto')
      throw badRequest(target, 'tool_choice is set but no tools are given');
    return undefined;
  }
  const specs = tools.map(toToolSpec);
  if (choice === 'none') return historyHasTools ? { tools: specs } : undefined;
  const toolChoice = toToolChoice(choice, target);
  return toolChoice ? { tools: specs, toolChoice } : { tools: specs };
}
