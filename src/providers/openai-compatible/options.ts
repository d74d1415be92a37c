import type { UpstreamFailure } from '../../errors/map-error.js';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatMessage,
  FinishReason,
  ProviderName,
  Usage,
} from '../../types/index.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';

/**
 * A per-stream step applied to every normalized chunk, in order. Returns the chunk to yield (changed or
 * not), or undefined to skip it. Created once per stream, so it may keep state (xAI's de-duplication).
 */
export type ChunkTransform = (chunk: ChatCompletionChunk) => ChatCompletionChunk | undefined;

/** What distinguishes one OpenAI-compatible provider from another. Every hook is optional. */
export interface OpenAICompatibleOptions {
  name: ProviderName;
  /** Used when the deployment sets no `api_base`. Includes `/v1` where the provider's does. */
  defaultApiBase?: string;
  /**
   * Environment variables read, in order, for the key when the deployment sets no `api_key`.
   */
  apiKeyEnv?: string | readonly string[];
  /**
   * The key is optional (local servers): a deployment on the default `api_base` with no key anywhere
   * is called without `Authorization` instead of being refused at construction.
   */
  apiKeyOptional?: boolean;
  /** The URL of an operation (`chat/completions`, `embeddings`, ...). Default: `{api_base}/{path}`. */
  url?(target: ProviderTarget, path: string): string;
  /** The path of a chat request, given its body (DeepSeek's prefix completion has its own). @default 'chat/completions' */
  chatPath?(body: Record<string, unknown>, target: ProviderTarget): string;
  /**
   * Auth and provider headers. May be async (a token to fetch). Default: `Authorization: Bearer
   * {api_key}` when a key is set.
   */
  headers?(
    target: ProviderTarget,
    options: CallOptions,
  ): Record<string, string> | Promise<Record<string, string>>;
  /** Whether streams ask for `stream_options.include_usage`. @default true */
  streamUsage?: boolean;
  /**
   * Which reasoning fields of earlier assistant turns the provider takes back (spec 4.1 rule 3); the
   * others fail the call, or are removed with `drop_params`.
   * @default neither `thinking_blocks` nor `reasoning_content`
   */
  reasoningHistory?(target: ProviderTarget): ReasoningHistorySupport;
  /**
   * Provider fields for one assistant message of the history, given the wire message (our own
   * `provider_specific_fields` already removed from it) and the caller's message.
   */
  adaptHistoryMessage?(
    wire: Record<string, unknown>,
    message: ChatMessage,
    target: ProviderTarget,
  ): Record<string, unknown>;
  /** Provider-specific changes to the chat body (reasoning parameters, unsupported fields). */
  adaptChatBody?(
    body: Record<string, unknown>,
    target: ProviderTarget,
    options: CallOptions,
  ): Record<string, unknown>;
  /** The contract `finish_reason` of a provider value; may throw for values that mean failure. */
  finishReason?(raw: string, target: ProviderTarget): FinishReason;
  /** Provider-specific usage fields (xAI's reasoning tokens, DeepSeek's cache hits). */
  adaptUsage?(usage: Usage, raw: Record<string, unknown>): Usage;
  /** Provider-specific fields of a whole completion, given its raw body. */
  adaptCompletion?(
    completion: ChatCompletion,
    raw: Record<string, unknown>,
    target: ProviderTarget,
  ): ChatCompletion;
  /** Creates the per-stream chunk step. */
  chunkTransform?(target: ProviderTarget): ChunkTransform;
  /** Reads the provider's error body. @default the OpenAI `{ error: { message, type, code } }` reader */
  /** Problems with a deployment knowable before any call (reported at Router construction). */
  validate?(target: ProviderTarget): string[];
  readError?(
    status: number,
    bodyText: string,
    headers: Record<string, string | string[] | undefined>,
  ): UpstreamFailure;
}

/** The response-side hooks, as the converters use them. */
export type ResponseHooks = Pick<
  OpenAICompatibleOptions,
  'finishReason' | 'adaptUsage' | 'adaptCompletion' | 'chunkTransform'
>;
