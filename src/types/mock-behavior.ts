// What a mock provider does for a request: the types a provider adapter's `mockFormat` is written
// against. Types only, below providers/ and testing/ (the mock server in testing/ implements them).
/** How a streamed answer misbehaves, for testing failover (counts are chunks sent before the fault). */
export interface MockStreamOptions {
  /** Wait between chunks. */
  chunkDelayMs?: number;
  /**
   * Wait this long before the last chunk, the one before the terminal frames (OpenAI's usage chunk
   * when the request asks for usage; Anthropic's `message_delta`): a client can leave before it.
   */
  lastChunkDelayMs?: number;
  /**
   * Send that last chunk only once this settles (after any `lastChunkDelayMs`): a test releases it when
   * it chooses, e.g. once its client has left, with no race against the clock.
   */
  holdLastChunk?: PromiseLike<unknown>;
  /** Destroy the connection after this many chunks. */
  cutAfter?: number;
  /** Stop sending (keep the connection open) after this many chunks. */
  stallAfter?: number;
  /** Send the format's error event after this many chunks. */
  errorAfter?: number;
  /**
   * End the response without the format's terminal frames: OpenAI's `[DONE]` and Anthropic's
   * `message_stop` (the answer's finish was sent: a complete stream), Gemini's last fragment and
   * Bedrock's `messageStop` (they carry the finish: a truncated stream).
   */
  omitTerminal?: boolean;
  /**
   * End the response cleanly (no cut) after this many chunks, never sending the terminal frames: a
   * truncated stream.
   */
  endAfter?: number;
  /** Send every frame one byte at a time, this many milliseconds apart (a server that drips bytes). */
  dripMs?: number;
  /** Send an event whose data is not JSON after this many chunks, then carry on. */
  malformedAfter?: number;
}

/** A tool call the mock model makes. */
export interface MockToolCall {
  id?: string;
  name: string;
  /** JSON text, or an object that is serialised. */
  arguments: string | Record<string, unknown>;
}

/**
 * What the mock answers on a path (CONTRACT 5.8). Everything is optional: the default is a short text
 * answer with usage.
 */
export interface MockBehavior {
  content?: string;
  reasoning?: string;
  /** The reasoning's signature (Anthropic `signature`, Bedrock `signature`, Gemini `thoughtSignature`). */
  signature?: string;
  /** Encrypted reasoning (Anthropic `redacted_thinking.data`, Bedrock `redactedContent`). */
  redactedReasoning?: string;
  toolCalls?: MockToolCall[];
  delayMs?: number;
  /** Answer with this HTTP status and the format's error body (every time, or the first `failTimes`). */
  status?: number;
  /** Fail only the first N requests, then answer normally. */
  failTimes?: number;
  /**
   * Answer `slowMs` late (after any `delayMs`) with this probability (the server's seeded random
   * source): a deployment with a latency tail.
   */
  slowRate?: number;
  /** How late a slow answer is (see `slowRate`). @default 1000 */
  slowMs?: number;
  /** Fail each request with this probability (uses the server's seeded random source). */
  failRate?: number;
  /**
   * A request that ends with an assistant prefix (prefill): `continue` answers with the rest of
   * `content` after the prefix (all of it when it does not start so); `refuse` answers with the
   * provider's own refusal (400). Streams keep their faults (`cutAfter`, `stallAfter`, ...).
   * @default 'continue'
   */
  prefill?: 'continue' | 'refuse';
  /** Instead of a status: `reset` destroys the connection, `hang` never answers. */
  fault?: 'reset' | 'hang';
  /** Fields of the error body (`message`, `code`, `type`). */
  error?: { message?: string; code?: string; type?: string };
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
  /** Streaming details and faults; streaming itself follows the request. */
  stream?: boolean | MockStreamOptions;
  /**
   * Token counts to report. `prompt_tokens` counts every input token; of them `cached_tokens` were read
   * from the provider's cache and `cache_creation_tokens` written to it, reported the way each format
   * does (OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens` and
   * `cache_creation_input_tokens`, Gemini `cachedContentTokenCount`).
   */
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    cached_tokens?: number;
    cache_creation_tokens?: number;
  };
  /** Embedding vector length. @default 8 */
  dimensions?: number;
  /** How the OpenAI format answers, for the providers that speak it with their own variations. */
  openaiVariant?: {
    /** `reasoning_content` (DeepSeek, xAI; default) or `openrouter` (`reasoning` + `reasoning_details`). */
    reasoningFormat?: 'reasoning_content' | 'openrouter';
    /** Stream each reasoning delta this many times in a row (xAI's repeated deltas). @default 1 */
    repeatReasoningDeltas?: number;
    /** Stream each tool call whole in one delta, as xAI does (instead of a header, then arguments). */
    wholeToolCalls?: boolean;
    /**
     * A keep-alive sent first: this SSE comment in streams (DeepSeek `keep-alive`, OpenRouter
     * `OPENROUTER PROCESSING`), blank lines before a plain JSON answer.
     */
    keepAlive?: string;
    /**
     * Azure's content filter: `prompt` refuses with its 400 body (also what `status: 400` answers),
     * `completion` cuts the answer short with `finish_reason: 'content_filter'`.
     */
    contentFilter?: 'prompt' | 'completion';
  };
  /**
   * Answer exactly this, whatever the format (replays a recorded response or an API-reference fixture).
   * `body` parts are written in order (a stream's frames); `status` defaults to 200.
   */
  raw?: {
    status?: number;
    headers?: Record<string, string>;
    body: string | Uint8Array | Array<string | Uint8Array>;
  };
}
