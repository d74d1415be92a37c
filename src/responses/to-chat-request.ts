import { BadRequestError } from '../errors/classes.js';
import type { ChatCompletionRequest, ToolChoice, ToolDefinition } from '../types/chat.js';
import { itemsToChatMessages } from './to-chat-messages.js';
import type {
  InputItem,
  ResponsesFunctionTool,
  ResponsesRequest,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './types.js';

/**
 * A request's `input` as items: a string is one user message. What a stored response keeps as its
 * input, and what a continued conversation replays.
 *
 * @example inputItems('hi') // => [{ type: 'message', role: 'user', content: 'hi' }]
 */
export function inputItems(input: ResponsesRequest['input']): InputItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return input;
}

function toTool(tool: ResponsesFunctionTool): ToolDefinition {
  const fn: ToolDefinition['function'] = { name: tool.name };
  if (tool.description != null) fn.description = tool.description;
  if (tool.parameters != null) fn.parameters = tool.parameters;
  if (tool.strict != null) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function toToolChoice(choice: ResponsesToolChoice): ToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function toResponseFormat(format: ResponsesTextFormat): Record<string, unknown> | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { type: _type, ...schema } = format;
  return { type: 'json_schema', json_schema: schema };
}

function toolFields(req: ResponsesRequest, out: ChatCompletionRequest): void {
  if (req.tools !== undefined && req.tools.length > 0) out.tools = req.tools.map(toTool);
  if (req.tool_choice !== undefined) out.tool_choice = toToolChoice(req.tool_choice);
  if (req.parallel_tool_calls != null) out.parallel_tool_calls = req.parallel_tool_calls;
}

function samplingFields(req: ResponsesRequest, out: ChatCompletionRequest): void {
  if (req.max_output_tokens != null) out.max_completion_tokens = req.max_output_tokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.top_p = req.top_p;
  if (req.reasoning?.effort != null) out.reasoning_effort = req.reasoning.effort;
  const format = req.text?.format && toResponseFormat(req.text.format);
  if (format) out.response_format = format;
  if (req.text?.verbosity != null) out.verbosity = req.text.verbosity;
}

// Chat fields of the same name and meaning; providers without them refuse them in their own words
// (or drop them with `drop_params`).
const SAME_NAME = ['service_tier', 'prompt_cache_key', 'safety_identifier'] as const;

/** Options of {@link responsesToChatRequest}. */
export interface ToChatRequestOptions {
  /**
   * The items of the conversation so far (a stored response's input and output, for
   * `previous_response_id`), replayed before the request's own input.
   * @default []
   */
  history?: readonly InputItem[];
}

/**
 * A Responses request as the router's chat request: `instructions` become the first (system) message,
 * then the history and `input` items as chat messages (see {@link itemsToChatMessages}); function
 * `tools` nest under `function`; `tool_choice` and `parallel_tool_calls` keep their meaning;
 * `reasoning.effort` is `reasoning_effort` (each provider translates it, e.g. Anthropic's thinking
 * budget); `max_output_tokens` is `max_completion_tokens`; `text.format` is `response_format`
 * (`json_schema` nested under `json_schema`) and `text.verbosity` is `verbosity`; `metadata` goes to
 * the router's `metadata` (callbacks and tags, never upstream); `user`, `temperature`, `top_p`,
 * `service_tier`, `prompt_cache_key` and `safety_identifier` pass as they are. A stream asks for usage
 * in its last chunk. `store`, `previous_response_id` and `include` are the gateway's business and are
 * not sent. The router's own fields are kept.
 *
 * @throws BadRequestError when there is nothing to answer (no `input` and no history).
 * @example responsesToChatRequest(parseResponsesRequest({ model: 'gpt-4o', instructions: 'Be brief.', input: 'hi' }))
 * // => { model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] }
 */
export function responsesToChatRequest(
  req: ResponsesRequest,
  options: ToChatRequestOptions = {},
): ChatCompletionRequest {
  const items = [...(options.history ?? []), ...inputItems(req.input)];
  if (items.length === 0)
    throw new BadRequestError('Invalid Responses request: input: is required (a string or a list of items)');
  const system = req.instructions ? [{ role: 'system' as const, content: req.instructions }] : [];
  const out: ChatCompletionRequest = {
    model: req.model,
    messages: [...system, ...itemsToChatMessages(items)],
  };
  toolFields(req, out);
  samplingFields(req, out);
  if (req.metadata != null) out.metadata = req.metadata;
  if (req.user !== undefined) out.user = req.user;
  for (const field of SAME_NAME) if (req[field] != null) out[field] = req[field];
  if (req.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return Object.assign(out, req.routerFields);
}
