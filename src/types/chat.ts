/** A text part of a multi-part message. */
export interface TextContentPart {
  type: 'text';
  text: string;
}

/** An image part of a multi-part message (URL or `data:` URI). */
export interface ImageContentPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/** One part of a message's `content` when it is an array. */
export type ContentPart = TextContentPart | ImageContentPart;

/** A function call the model asked for. */
export interface ToolCall {
  index?: number;
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Provider data that must travel with the call, e.g. Gemini's `thought_signature`. */
  provider_specific_fields?: Record<string, unknown>;
}

/** A block of Anthropic-type reasoning. `signature` must be sent back verbatim on later turns. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** Reasoning the provider encrypted; only its opaque `data` is sent back. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AnyThinkingBlock = ThinkingBlock | RedactedThinkingBlock;

/** One message of a conversation, in the OpenAI chat format. */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[] | null;
  tool_call_id?: string;
  function_call?: { name: string; arguments: string } | null;
  reasoning_content?: string | null;
  thinking_blocks?: AnyThinkingBlock[] | null;
  provider_specific_fields?: Record<string, unknown> | null;
  /**
   * On a last `assistant` message: the model continues this text (assistant prefill). Sent as is to
   * OpenAI-compatible providers (DeepSeek's and Mistral's `prefix: true`); the others get their own
   * form of a trailing assistant turn.
   */
  prefix?: boolean;
}

/** A tool the model may call. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

/** Anthropic-style extended thinking settings. */
export interface ThinkingParam {
  type: 'enabled' | 'disabled';
  budget_tokens?: number;
}

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

/**
 * Fields the router reads and never forwards upstream (CONTRACT 5.1).
 */
export interface RouterRequestFields {
  /** Remove parameters the target provider cannot take instead of failing. */
  drop_params?: boolean;
  /** Free-form request metadata, passed to callbacks; never sent upstream. */
  metadata?: Record<string, unknown>;
  /** Answer with this content without calling any provider. */
  mock_response?: string;
  /** Raise a RateLimitError through the normal routing path (for testing). */
  mock_testing_rate_limit_error?: boolean;
  /** Fail the requested group as if it were down, so its fallbacks answer (for testing). */
  mock_testing_fallbacks?: boolean;
  /** Per-request override of the router's `num_retries`. */
  num_retries?: number;
  /** Per-request fallback model groups. */
  fallbacks?: string[];
  /** Keep only deployments in this region (with pre-call checks on). */
  allowed_model_region?: string;
  /** Per-request timeout in seconds. */
  timeout?: number;
  /** Per-request cache controls. */
  cache?: Record<string, unknown>;
}

/** The OpenAI chat completion request body plus router fields. Unknown fields pass through to the provider. */
export interface ChatCompletionRequest extends RouterRequestFields {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  n?: number;
  seed?: number;
  user?: string;
  response_format?: Record<string, unknown>;
  reasoning_effort?: ReasoningEffort;
  thinking?: ThinkingParam;
  [extra: string]: unknown;
}

/** Token counts of one call. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details?: { reasoning_tokens?: number; [k: string]: unknown } | null;
  prompt_tokens_details?: { cached_tokens?: number; [k: string]: unknown } | null;
  /**
   * Tools the provider ran itself during the call and bills by the use, as Anthropic reports them:
   * `web_search_requests`, its web searches (and an OpenAI Responses answer's `web_search_call` items,
   * read by `usageReader`), priced at the catalog's price per search.
   */
  server_tool_use?: { web_search_requests?: number; [k: string]: unknown } | null;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** The assistant message of a completion choice (CONTRACT 2.4). */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls: ToolCall[] | null;
  function_call: null;
  reasoning_content?: string;
  thinking_blocks?: AnyThinkingBlock[];
  provider_specific_fields?: Record<string, unknown>;
}

export interface ChatCompletionChoice {
  index: number;
  finish_reason: FinishReason | null;
  message: AssistantMessage;
}

/** The chat completion envelope (CONTRACT 2.4). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string | null;
  choices: ChatCompletionChoice[];
  usage: Usage;
  service_tier: string | null;
}

/** The incremental message of a streaming chunk. */
export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: 'function';
    function?: { name?: string; arguments?: string };
    /** Provider data that must travel with the call (Gemini's `thought_signature`), on its first piece. */
    provider_specific_fields?: Record<string, unknown>;
  }>;
  reasoning_content?: string;
  thinking_blocks?: AnyThinkingBlock[];
  provider_specific_fields?: Record<string, unknown>;
}

/** One `chat.completion.chunk` of a stream. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint?: string | null;
  choices: Array<{ index: number; delta: ChunkDelta; finish_reason: FinishReason | null }>;
  usage?: Usage | null;
}
