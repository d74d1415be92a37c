import type { Usage } from '@svc/router';

/** Anthropic's `usage` of a message. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  /** The tools Anthropic ran itself: its web searches. */
  server_tool_use?: { web_search_requests: number };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * The router's usage as Anthropic counts it: `input_tokens` leaves out the cached input, which goes
 * to `cache_read_input_tokens` and `cache_creation_input_tokens` when the provider reported a cache.
 * The inverse of the Anthropic adapter's usage, so an Anthropic deployment's counts come back as sent.
 *
 * @example toAnthropicUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 })
 * // => { input_tokens: 10, output_tokens: 5 }
 */
export function toAnthropicUsage(usage: Usage | null | undefined): AnthropicUsage {
  const details = usage?.prompt_tokens_details;
  const cacheRead = count(details?.cached_tokens);
  const cacheWrite = count(details?.cache_creation_tokens);
  const out: AnthropicUsage = {
    input_tokens: Math.max(0, count(usage?.prompt_tokens) - cacheRead - cacheWrite),
    output_tokens: count(usage?.completion_tokens),
  };
  if (details) {
    out.cache_read_input_tokens = cacheRead;
    out.cache_creation_input_tokens = cacheWrite;
  }
  const searches = count(usage?.server_tool_use?.web_search_requests);
  if (searches > 0) out.server_tool_use = { web_search_requests: searches };
  return out;
}
