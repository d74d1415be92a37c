import type {
  ChatCompletionRequest,
  ChatMessage,
  ThinkingParam,
  ToolChoice,
  ToolDefinition,
} from '@svc/router';
import { BadRequestError } from '@svc/router';
import { requestProblems } from './request-problems.js';
import { type AnthropicCustomTool, type MessagesRequest, messagesRequestSchema } from './request-schema.js';
import { textContent, toChatMessages } from './to-chat-messages.js';

/** The router's own request fields a client may send along (the same as on `/v1/chat/completions`). */
const ROUTER_FIELDS = [
  'drop_params',
  'mock_response',
  'mock_testing_rate_limit_error',
  'mock_testing_fallbacks',
  'num_retries',
  'fallbacks',
  'timeout',
] as const;

function parse(body: unknown): MessagesRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('The request body must be a JSON object.');
  }
  const result = messagesRequestSchema.safeParse(body);
  if (result.success) return result.data;
  throw new BadRequestError(
    `Invalid Anthropic Messages request: ${requestProblems(result.error).join('; ')}`,
  );
}

type Tool = NonNullable<MessagesRequest['tools']>[number];

function isCustomTool(tool: Tool): tool is AnthropicCustomTool {
  return 'input_schema' in tool && tool.input_schema !== undefined;
}

function toTool(tool: Tool): ToolDefinition {
  // the Anthropic adapter sends a tool that is not a function as it is
  if (!isCustomTool(tool)) return tool as unknown as ToolDefinition;
  const fn: ToolDefinition['function'] = { name: tool.name, parameters: tool.input_schema };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function toToolChoice(choice: NonNullable<MessagesRequest['tool_choice']>): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

function systemMessage(system: MessagesRequest['system']): ChatMessage[] {
  if (system === undefined) return [];
  const content = typeof system === 'string' ? system : textContent(system, '\n');
  return content === '' ? [] : [{ role: 'system', content }];
}

function samplingFields(req: MessagesRequest, out: ChatCompletionRequest): void {
  if (req.stop_sequences !== undefined && req.stop_sequences.length > 0) out.stop = req.stop_sequences;
  if (req.temperature !== undefined) out.temperature = req.temperature;
  if (req.top_p !== undefined) out.top_p = req.top_p;
  if (req.top_k !== undefined) out.top_k = req.top_k;
  if (req.thinking !== undefined) out.thinking = req.thinking as ThinkingParam;
}

function toolFields(req: MessagesRequest, out: ChatCompletionRequest): void {
  if (req.tools !== undefined && req.tools.length > 0) out.tools = req.tools.map(toTool);
  if (req.tool_choice === undefined) return;
  out.tool_choice = toToolChoice(req.tool_choice);
  if ('disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use === true) {
    out.parallel_tool_calls = false;
  }
}

/**
 * An Anthropic Messages request body as the router's chat request: `system` becomes the first
 * message, content blocks become parts, tool calls and results and thinking blocks (signatures kept)
 * move to their chat places (see `toChatMessages`), `tools` become functions (`input_schema` is
 * `parameters`; Anthropic server tools pass as they are), `tool_choice` too (`any` is `required`),
 * `stop_sequences` is `stop`, `metadata.user_id` is `user`; `thinking` (`adaptive` included),
 * `top_k`, `max_tokens` and `stream` pass as they are, and `output_config` when it asks for an output
 * format. A stream asks for usage in its last chunk. Other Anthropic-only fields (`service_tier`,
 * `container`, `mcp_servers`, ...) are left out; the router's own fields (`mock_response`,
 * `fallbacks`, ...) are kept.
 *
 * @throws BadRequestError naming each bad field (`messages[0].content[1].source.data: ...`).
 * @example anthropicToChatRequest({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
 * // => { model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }
 */
export function anthropicToChatRequest(body: unknown): ChatCompletionRequest {
  const req = parse(body);
  const out: ChatCompletionRequest = {
    model: req.model,
    messages: [...systemMessage(req.system), ...toChatMessages(req.messages)],
    max_tokens: req.max_tokens,
  };
  samplingFields(req, out);
  toolFields(req, out);
  if (typeof req.metadata?.user_id === 'string') out.user = req.metadata.user_id;
  if (req.stream !== undefined) out.stream = req.stream;
  if (req.stream === true) out.stream_options = { include_usage: true };
  // A structured output format must not be lost: an Anthropic-type deployment takes `output_config`
  // as sent, others refuse it in their own words. `effort` alone is a hint, left out for them.
  if (req.output_config?.format) out.output_config = req.output_config;
  const raw = body as Record<string, unknown>;
  for (const field of ROUTER_FIELDS)
    if (raw[field] !== undefined) Object.assign(out, { [field]: raw[field] });
  return out;
}
