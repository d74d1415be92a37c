/**
 * The OpenAI Responses API's wire shapes this library reads and writes (the subset a chat model can
 * serve: text, function tools, reasoning). Field names are the API's own.
 */

/** A text part of an input message. */
export interface InputTextPart {
  type: 'input_text';
  text: string;
}

/** An image part of an input message: a URL or a `data:` URI. */
export interface InputImagePart {
  type: 'input_image';
  image_url: string;
  detail?: 'auto' | 'low' | 'high';
}

/** A text part of an earlier assistant message sent back as input. */
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs?: unknown[];
}

/** A refusal part of an earlier assistant message sent back as input. */
export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

/** A message of the conversation. `type` may be left out, as the API allows. */
export interface MessageItem {
  type?: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | Array<InputTextPart | InputImagePart | OutputTextPart | RefusalPart>;
  status?: ItemStatus;
}

/** A function call the model made. `call_id` pairs it with its output. */
export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  /** JSON text. */
  arguments: string;
  status?: ItemStatus;
}

/** What the caller's function returned for a call. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  id?: string;
  call_id: string;
  output: string | Array<InputTextPart | InputImagePart>;
  status?: ItemStatus;
}

/** A summary or reasoning text part of a reasoning item. */
export interface ReasoningTextPart {
  type: 'summary_text' | 'reasoning_text';
  text: string;
}

/**
 * The model's reasoning. `summary` holds the reasoning text the provider showed; `encrypted_content`
 * carries what the provider needs back on later turns (signed thinking), opaque to the caller.
 */
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: ReasoningTextPart[];
  content?: ReasoningTextPart[];
  encrypted_content?: string | null;
  status?: ItemStatus;
}

/** One item of a request's `input`. */
export type InputItem = MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem;

/** Where an item is: still streaming, whole, or cut short. */
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** A function tool, in the Responses shape (flat, not nested under `function`). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

/** Which tools the model may (or must) call: as chat's `tool_choice`, a function named flat. */
export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

/** `text.format`: plain text, any JSON object, or JSON matching a schema. */
export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      description?: string;
      strict?: boolean | null;
    };

/** The reasoning efforts a request may ask for (the chat API's `reasoning_effort` values). */
export type ResponsesReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

/** A `POST /v1/responses` body, as {@link parseResponsesRequest} checked it. */
export interface ResponsesRequest {
  model: string;
  input?: string | InputItem[];
  instructions?: string | null;
  tools?: ResponsesFunctionTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean | null;
  reasoning?: {
    effort?: ResponsesReasoningEffort | null;
    summary?: 'auto' | 'concise' | 'detailed' | null;
    generate_summary?: 'auto' | 'concise' | 'detailed' | null;
  } | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  text?: { format?: ResponsesTextFormat; verbosity?: 'low' | 'medium' | 'high' | null };
  metadata?: Record<string, string> | null;
  user?: string;
  stream?: boolean | null;
  store?: boolean | null;
  previous_response_id?: string | null;
  include?: Array<'reasoning.encrypted_content'> | null;
  truncation?: 'disabled' | null;
  service_tier?: string | null;
  prompt_cache_key?: string | null;
  safety_identifier?: string | null;
  stream_options?: { include_obfuscation?: boolean } | null;
  /**
   * The router's own request fields the body carried (`fallbacks`, `num_retries`, `mock_response`,
   * ...; the same as `/v1/chat/completions` takes), passed on to the chat request. Not a wire field.
   */
  routerFields: Record<string, unknown>;
}

/** An output text part, with its (always empty) annotations. */
export interface ResponseOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

/** The assistant's text answer. */
export interface ResponseOutputMessage {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ItemStatus;
  content: ResponseOutputText[];
}

/** A function call the model asks the caller to run. */
export interface ResponseFunctionCall {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}

/** The model's reasoning (its text as one summary part). */
export interface ResponseReasoning {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
}

/** One item of a response's `output`. */
export type ResponseOutputItem = ResponseOutputMessage | ResponseFunctionCall | ResponseReasoning;

/** Token counts of a response. `input_tokens` counts every input token, cached ones included. */
export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** Where a response is: streaming, whole, cut (`incomplete_details` says why) or failed (`error`). */
export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** The Response object (`object: "response"`), as answered, streamed and stored. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  completed_at: number | null;
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: null;
  model: string;
  output: ResponseOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: ResponsesReasoningEffort | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  text: { format: ResponsesTextFormat; verbosity?: string };
  tool_choice: ResponsesToolChoice;
  tools: ResponsesFunctionTool[];
  top_p: number | null;
  truncation: 'disabled';
  usage: ResponseUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}

/**
 * One event of a Responses stream: its `type` (also the SSE event name), its place in the stream
 * (`sequence_number`, from 0), and the type's fields (`response`, `item`, `delta`, ...).
 */
export interface ResponseStreamEvent {
  type: ResponseStreamEventType;
  sequence_number: number;
  [field: string]: unknown;
}

/** The event types a translated stream sends. */
export type ResponseStreamEventType =
  | 'response.created'
  | 'response.in_progress'
  | 'response.output_item.added'
  | 'response.output_item.done'
  | 'response.content_part.added'
  | 'response.content_part.done'
  | 'response.output_text.delta'
  | 'response.output_text.done'
  | 'response.function_call_arguments.delta'
  | 'response.function_call_arguments.done'
  | 'response.reasoning_summary_part.added'
  | 'response.reasoning_summary_part.done'
  | 'response.reasoning_summary_text.delta'
  | 'response.reasoning_summary_text.done'
  | 'response.completed'
  | 'response.incomplete'
  | 'response.failed';
