import { randomUUID } from 'node:crypto';
import { InternalServerError } from '../../errors/classes.js';
import type {
  AnyThinkingBlock,
  AssistantMessage,
  ChatCompletion,
  ToolCall,
  Usage,
} from '../../types/index.js';
import { cacheAwareUsage } from '../shared/cache-usage.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { errorOptions } from '../shared/provider-errors.js';
import { toFinishReason } from './finish-reason.js';

/**
 * Anthropic usage as the contract's: `prompt_tokens` counts every input token, cached or not
 * (`input_tokens` + `cache_creation_input_tokens` + `cache_read_input_tokens`), with the cache reads in
 * `prompt_tokens_details.cached_tokens` and the cache writes in `cache_creation_tokens`.
 */
export function toAnthropicUsage(value: unknown): Usage {
  const u = asRecord(value) ?? {};
  const usage = cacheAwareUsage(
    asFiniteNumber(u.input_tokens),
    asFiniteNumber(u.output_tokens),
    asFiniteNumber(u.cache_read_input_tokens),
    asFiniteNumber(u.cache_creation_input_tokens),
  );
  const thinking = asFiniteNumber(asRecord(u.output_tokens_details)?.thinking_tokens);
  if (thinking !== undefined) usage.completion_tokens_details = { reasoning_tokens: thinking };
  const searches = asFiniteNumber(asRecord(u.server_tool_use)?.web_search_requests);
  if (searches !== undefined && searches > 0) usage.server_tool_use = { web_search_requests: searches };
  return usage;
}

/**
 * Adds what a `message_delta` says of the usage to what the stream said before: its counts are
 * cumulative and may restate the input counts or send them as null, so only numbers overwrite, and
 * the server tools' counts (an object).
 */
export function mergeAnthropicUsage(into: Record<string, unknown>, delta: unknown): void {
  for (const [key, value] of Object.entries(asRecord(delta) ?? {}))
    if (asFiniteNumber(value) !== undefined || (key === 'server_tool_use' && asRecord(value)))
      into[key] = value;
}

interface Collected {
  text: string[];
  reasoning: string[];
  thinking: AnyThinkingBlock[];
  calls: ToolCall[];
  citations: unknown[];
  other: unknown[];
}

function collect(content: readonly unknown[]): Collected {
  const out: Collected = { text: [], reasoning: [], thinking: [], calls: [], citations: [], other: [] };
  for (const raw of content) {
    const block = asRecord(raw) ?? {};
    if (block.type === 'text') {
      out.text.push(asString(block.text) ?? '');
      if (Array.isArray(block.citations)) out.citations.push(...block.citations);
    } else if (block.type === 'thinking') {
      const thinking = asString(block.thinking) ?? '';
      out.reasoning.push(thinking);
      const signature = asString(block.signature);
      out.thinking.push(
        signature === undefined ? { type: 'thinking', thinking } : { type: 'thinking', thinking, signature },
      );
    } else if (block.type === 'redacted_thinking') {
      out.thinking.push({ type: 'redacted_thinking', data: asString(block.data) ?? '' });
    } else if (block.type === 'tool_use') {
      out.calls.push({
        index: out.calls.length,
        id: asString(block.id) ?? `toolu_${out.calls.length}`,
        type: 'function',
        function: { name: asString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    } else {
      // server tool use and results, and block types newer than this adapter: kept, not dropped
      out.other.push(raw);
    }
  }
  return out;
}

// Message-level fields worth keeping that the contract has no place for.
const ENVELOPE_EXTRAS = ['stop_sequence', 'stop_details', 'container'] as const;

/**
 * The assistant message of an Anthropic `content` array. Text blocks are joined into `content`,
 * `tool_use` blocks become `tool_calls`, thinking becomes `reasoning_content` plus `thinking_blocks`
 * (signatures verbatim); citations, unknown blocks and the `envelope`'s stop sequence, stop details
 * and container go to `provider_specific_fields`.
 */
export function toAssistantMessage(
  content: readonly unknown[],
  envelope: Record<string, unknown> = {},
): AssistantMessage {
  const c = collect(content);
  const message: AssistantMessage = {
    role: 'assistant',
    content: c.text.length > 0 ? c.text.join('') : null,
    tool_calls: c.calls.length > 0 ? c.calls : null,
    function_call: null,
  };
  if (c.reasoning.length > 0) message.reasoning_content = c.reasoning.join('');
  if (c.thinking.length > 0) message.thinking_blocks = c.thinking;
  const extra: Record<string, unknown> = {};
  if (c.citations.length > 0) extra.citations = c.citations;
  if (c.other.length > 0) extra.content_blocks = c.other;
  for (const key of ENVELOPE_EXTRAS)
    if (envelope[key] !== undefined && envelope[key] !== null) extra[key] = envelope[key];
  if (Object.keys(extra).length > 0) message.provider_specific_fields = extra;
  return message;
}

/**
 * Converts an Anthropic Messages response into the contract's chat completion envelope (CONTRACT 2.4).
 * The id is Anthropic's message id; `created` is the time of parsing, since Anthropic sends none.
 *
 * @throws InternalServerError when the body is not a message (no `content` array).
 */
export function toChatCompletion(json: unknown, target: ProviderTarget): ChatCompletion {
  const body = asRecord(json);
  if (!body || !Array.isArray(body.content)) {
    throw new InternalServerError(
      `${target.provider}/${target.model} answered without \`content\``,
      errorOptions(target),
    );
  }
  const usage = asRecord(body.usage);
  return {
    id: asString(body.id) ?? `msg_${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: asString(body.model) ?? target.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        finish_reason: toFinishReason(body.stop_reason),
        message: toAssistantMessage(body.content, body),
      },
    ],
    usage: toAnthropicUsage(usage),
    service_tier: asString(usage?.service_tier) ?? null,
  };
}
