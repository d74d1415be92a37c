import type { ChatCompletion } from '../types/chat.js';
import { newResponsesId } from './ids.js';
import {
  finishOutcome,
  functionCallItem,
  messageItem,
  reasoningItem,
  toResponseUsage,
} from './output-items.js';
import type { ResponseObject, ResponseOutputItem, ResponsesRequest } from './types.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Options of {@link responseShell}. */
export interface ResponseShellOptions {
  /** The response's id. @default a new `resp_...` id */
  id?: string;
  /** Unix seconds. @default now */
  createdAt?: number;
}

/**
 * The Response a request starts: `in_progress`, no output or usage yet, and the request's settings
 * echoed as the API does (`instructions`, `tools`, `tool_choice`, `reasoning`, `text`, `metadata`, ...;
 * `model` is the model the caller asked for). What `response.created` carries; {@link
 * chatCompletionToResponse} and {@link ResponsesStreamWriter} complete it.
 *
 * @example responseShell(parseResponsesRequest({ model: 'gpt-4o', input: 'hi' })).status // => 'in_progress'
 */
export function responseShell(request: ResponsesRequest, options: ResponseShellOptions = {}): ResponseObject {
  const text: ResponseObject['text'] = { format: request.text?.format ?? { type: 'text' } };
  if (request.text?.verbosity != null) text.verbosity = request.text.verbosity;
  return {
    id: options.id ?? newResponsesId('resp'),
    object: 'response',
    created_at: options.createdAt ?? nowSeconds(),
    status: 'in_progress',
    completed_at: null,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: request.model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: {
      effort: request.reasoning?.effort ?? null,
      summary: request.reasoning?.summary ?? request.reasoning?.generate_summary ?? null,
    },
    store: request.store ?? true,
    temperature: request.temperature ?? null,
    text,
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: 'disabled',
    usage: null,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/**
 * A chat completion as the finished Response: its first choice's reasoning (`reasoning_content` as a
 * summary part, signed `thinking_blocks` in `encrypted_content`), text (one `output_text` part with
 * `annotations: []`) and tool calls (`function_call` items, `call_id` the tool call's id), in that
 * order, each with a new id; `status` `completed`, or `incomplete` with `incomplete_details` when the
 * answer was cut by the output limit (`max_output_tokens`) or a content filter; `usage` in the
 * Responses shape. The shell is not changed.
 *
 * @example chatCompletionToResponse(completion, responseShell(request)).output[0]
 * // => { type: 'message', id: 'msg_...', role: 'assistant', status: 'completed',
 * //      content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }] }
 */
export function chatCompletionToResponse(completion: ChatCompletion, shell: ResponseObject): ResponseObject {
  const choice = completion.choices[0];
  const message = choice?.message;
  const outcome = finishOutcome(choice?.finish_reason);
  const output: ResponseOutputItem[] = [];
  const blocks = message?.thinking_blocks ?? [];
  if (message?.reasoning_content || blocks.length > 0)
    output.push(reasoningItem(newResponsesId('rs'), message?.reasoning_content ?? '', blocks));
  if (typeof message?.content === 'string' && message.content !== '')
    output.push(messageItem(newResponsesId('msg'), outcome.status, message.content));
  for (const call of message?.tool_calls ?? []) {
    const { name, arguments: args } = call.function;
    output.push(
      functionCallItem(newResponsesId('fc'), { call_id: call.id, name, arguments: args }, 'completed'),
    );
  }
  return {
    ...shell,
    ...outcome,
    completed_at: outcome.status === 'completed' ? nowSeconds() : null,
    output,
    usage: toResponseUsage(completion.usage),
  };
}
