import { mergeAnthropicUsage, toAnthropicUsage } from '../providers/anthropic/convert-response.js';
import { toGeminiUsage } from '../providers/gemini/convert-response.js';
import { toUsage } from '../providers/openai-compatible/convert-response.js';
import { cacheAwareUsage } from '../providers/shared/cache-usage.js';
import { asFiniteNumber, asRecord, asString } from '../providers/shared/json.js';
import type { Usage } from '../types/index.js';

/** The wire formats whose answers `usageReader` reads. */
export type UsageFormat = 'anthropic' | 'openai' | 'gemini';

/** What an answer says it used, and the model it names. */
export interface AnswerUsage {
  usage: Usage | undefined;
  model: string | undefined;
}

/**
 * Reads usage from a provider's answer, one JSON value at a time: each stream event's data, or the
 * whole body of a plain answer. Later values win where the provider repeats its totals.
 */
export interface UsageReader {
  read(value: unknown): void;
  result(): AnswerUsage;
}

/** OpenAI usage in either shape: chat's `prompt_tokens`, or the Responses API's `input_tokens`. */
function openaiUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  if (u.input_tokens === undefined) return toUsage(u);
  const prompt = asFiniteNumber(u.input_tokens) ?? 0;
  const cached = asFiniteNumber(asRecord(u.input_tokens_details)?.cached_tokens) ?? 0;
  const usage = cacheAwareUsage(prompt - cached, asFiniteNumber(u.output_tokens), cached, undefined);
  const reasoning = asFiniteNumber(asRecord(u.output_tokens_details)?.reasoning_tokens);
  if (reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

/** Anthropic: `message_start` carries the input side, `message_delta` the output so far; a plain body both. */
function anthropicReader(): UsageReader {
  let raw: Record<string, unknown> | undefined;
  let model: string | undefined;
  return {
    read(value) {
      const v = asRecord(value);
      if (!v) return;
      const message = v.type === 'message_start' ? asRecord(v.message) : v.type === 'message' ? v : undefined;
      if (message) model = asString(message.model) ?? model;
      const usage = asRecord(message ? message.usage : v.type === 'message_delta' ? v.usage : undefined);
      if (!usage) return;
      // a message's usage is whole; a message_delta's adds to message_start's (its nulls do not erase)
      if (message || !raw) raw = { ...usage };
      else mergeAnthropicUsage(raw, usage);
    },
    result: () => ({ usage: raw && toAnthropicUsage(raw), model }),
  };
}

/** The web searches a Responses API answer ran: its `web_search_call` output items. */
function webSearchCalls(output: unknown): number {
  if (!Array.isArray(output)) return 0;
  let calls = 0;
  for (const item of output) if (asRecord(item)?.type === 'web_search_call') calls++;
  return calls;
}

/**
 * OpenAI: the chunk (or body, or `response.completed` event) that carries `usage`; a Responses
 * answer's web searches as `server_tool_use.web_search_requests`.
 */
function openaiReader(): UsageReader {
  let usage: Usage | undefined;
  let model: string | undefined;
  return {
    read(value) {
      const v = asRecord(value);
      if (!v) return;
      const body = asRecord(v.response) ?? v; // Responses API events wrap the response
      model = asString(body.model) ?? model;
      if (!body.usage) return;
      usage = openaiUsage(body.usage) ?? usage;
      const searches = webSearchCalls(body.output);
      if (usage && searches > 0) usage.server_tool_use = { web_search_requests: searches };
    },
    result: () => ({ usage, model }),
  };
}

/** Gemini: every chunk repeats the totals so far in `usageMetadata`; a plain body may be an array of them. */
function geminiReader(): UsageReader {
  let usage: Usage | undefined;
  let model: string | undefined;
  const readOne = (value: unknown) => {
    const v = asRecord(value);
    if (!v) return;
    model = asString(v.modelVersion) ?? model;
    if (v.usageMetadata) usage = toGeminiUsage(v.usageMetadata);
  };
  return {
    read(value) {
      if (Array.isArray(value)) for (const item of value) readOne(item);
      else readOne(value);
    },
    result: () => ({ usage, model }),
  };
}

/**
 * A fresh reader for one answer in a provider's own wire format (OpenAI chat or Responses, Anthropic
 * Messages, Gemini), for a server that forwards answers untouched and still wants their usage.
 *
 * @example
 * const reader = usageReader('anthropic');
 * for await (const event of parseSse(body)) reader.read(JSON.parse(event.data));
 * reader.result(); // { usage: { prompt_tokens, completion_tokens, ... }, model: 'claude-...' }
 */
export function usageReader(provider: UsageFormat): UsageReader {
  if (provider === 'anthropic') return anthropicReader();
  if (provider === 'gemini') return geminiReader();
  return openaiReader();
}
