import type { ChatCompletionRequest, ChatMessage, Deployment } from '../../types/index.js';

/** A broken stream's continuation: the request that asks for the rest, and how to join it on. */
export interface Continuation {
  request: ChatCompletionRequest;
  /**
   * Whitespace the caller already has at the end of the text, left out of the prefill (Anthropic
   * refuses a final assistant turn that ends with whitespace): as much leading whitespace of the
   * continuation is dropped, so the joined text reads as one.
   */
  skipWhitespace: number;
}

/**
 * Whether a deployment continues a trailing assistant message: its `model_info`, else `model_cost_map`,
 * else its model family's (resolved with its prices at construction).
 */
export function supportsPrefill(deployment: Deployment): boolean {
  return deployment.cost.supportsAssistantPrefill;
}

/**
 * The request that continues a broken answer on model group `group`: the original messages plus an
 * assistant message holding the text already sent (`prefix: true`; each adapter sends its provider's
 * prefill form), after a prefill the caller sent itself when there was one. Reasoning controls are
 * left out (Anthropic refuses a prefill with extended thinking, and the rest is plain text), and so
 * are the testing faults, which were the first group's. `max_tokens` and `max_completion_tokens` shrink
 * by the tokens already given, so the whole answer keeps the caller's bound.
 */
export function continuationOf(
  request: ChatCompletionRequest,
  group: string,
  text: string,
  deliveredTokens: number,
): Continuation {
  const prefill = text.trimEnd();
  const {
    thinking: _thinking,
    reasoning_effort: _effort,
    mock_testing_fallbacks: _fallbacks,
    mock_testing_rate_limit_error: _rateLimit,
    ...rest
  } = request;
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const ownPrefill =
    last?.role === 'assistant' && typeof last.content === 'string' ? last.content : undefined;
  const history = ownPrefill === undefined ? messages : messages.slice(0, -1);
  const assistant: ChatMessage = { role: 'assistant', content: (ownPrefill ?? '') + prefill, prefix: true };
  const continued: ChatCompletionRequest = {
    ...rest,
    model: group,
    stream: true,
    messages: [...history, assistant],
  };
  for (const key of ['max_tokens', 'max_completion_tokens'] as const) {
    const bound = request[key];
    if (typeof bound === 'number') continued[key] = Math.max(1, bound - deliveredTokens);
  }
  return { request: continued, skipWhitespace: text.length - prefill.length };
}
