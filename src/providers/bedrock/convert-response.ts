import { randomUUID } from 'node:crypto';
import { InternalServerError } from '../../errors/classes.js';
import type {
  AnyThinkingBlock,
  AssistantMessage,
  ChatCompletion,
  ChatCompletionRequest,
  ToolCall,
  Usage,
} from '../../types/index.js';
import { cacheAwareUsage } from '../shared/cache-usage.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { errorOptions } from '../shared/provider-errors.js';
import { toFinishReason } from './finish-reason.js';
import { bedrockModelId, isClaudeModel } from './model-id.js';

/**
 * Converse usage as the contract's: `prompt_tokens` counts every input token, cached or not
 * (`inputTokens` + `cacheReadInputTokens` + `cacheWriteInputTokens`), with the cache reads in
 * `prompt_tokens_details.cached_tokens` and the cache writes in `cache_creation_tokens` (whenever
 * Bedrock reports either count, 0 included).
 */
export function toBedrockUsage(value: unknown): Usage {
  const u = asRecord(value) ?? {};
  return cacheAwareUsage(
    asFiniteNumber(u.inputTokens),
    asFiniteNumber(u.outputTokens),
    asFiniteNumber(u.cacheReadInputTokens),
    asFiniteNumber(u.cacheWriteInputTokens),
  );
}

/** A native reasoning block as the contract's thinking block (signature kept verbatim). */
export function toThinkingBlock(native: Record<string, unknown>): AnyThinkingBlock | undefined {
  const text = asRecord(native.reasoningText);
  if (text) {
    const thinking = asString(text.text) ?? '';
    const signature = asString(text.signature);
    return signature === undefined
      ? { type: 'thinking', thinking }
      : { type: 'thinking', thinking, signature };
  }
  const redacted = asString(native.redactedContent);
  return redacted === undefined ? undefined : { type: 'redacted_thinking', data: redacted };
}

interface Collected {
  text: string[];
  reasoning: string[];
  native: Record<string, unknown>[];
  calls: ToolCall[];
}

function collect(content: readonly unknown[]): Collected {
  const out: Collected = { text: [], reasoning: [], native: [], calls: [] };
  for (const raw of content) {
    const block = asRecord(raw) ?? {};
    const reasoning = asRecord(block.reasoningContent);
    const toolUse = asRecord(block.toolUse);
    if (typeof block.text === 'string') out.text.push(block.text);
    else if (reasoning) {
      out.native.push(reasoning);
      const text = asString(asRecord(reasoning.reasoningText)?.text);
      if (text !== undefined) out.reasoning.push(text);
    } else if (toolUse) {
      out.calls.push({
        index: out.calls.length,
        id: asString(toolUse.toolUseId) ?? `tooluse_${out.calls.length}`,
        type: 'function',
        function: { name: asString(toolUse.name) ?? '', arguments: JSON.stringify(toolUse.input ?? {}) },
      });
    }
  }
  return out;
}

/**
 * A Converse `output.message` as the contract's assistant message: text blocks joined into `content`,
 * `toolUse` as `tool_calls` (input as a JSON string), `reasoningContent` text joined into
 * `reasoning_content`, for Claude models also `thinking_blocks` (signatures verbatim, redacted content
 * as `redacted_thinking`), and always the native blocks in
 * `provider_specific_fields.reasoningContentBlocks` (spec 2.2).
 */
export function toAssistantMessage(value: unknown, claude: boolean): AssistantMessage {
  const content = asRecord(value)?.content;
  const got = collect(Array.isArray(content) ? content : []);
  const message: AssistantMessage = {
    role: 'assistant',
    content: got.text.length > 0 ? got.text.join('') : null,
    tool_calls: got.calls.length > 0 ? got.calls : null,
    function_call: null,
  };
  if (got.reasoning.length > 0) message.reasoning_content = got.reasoning.join('');
  if (got.native.length > 0) {
    if (claude) {
      const blocks = got.native.map(toThinkingBlock).filter((b): b is AnyThinkingBlock => b !== undefined);
      if (blocks.length > 0) message.thinking_blocks = blocks;
    }
    message.provider_specific_fields = { reasoningContentBlocks: got.native };
  }
  return message;
}

// Response fields a caller asked for explicitly (response field paths, guardrail trace).
function requestedExtras(body: Record<string, unknown>, request: ChatCompletionRequest | undefined) {
  const extras: Record<string, unknown> = {};
  if (request?.additionalModelResponseFieldPaths !== undefined && body.additionalModelResponseFields)
    extras.additionalModelResponseFields = body.additionalModelResponseFields;
  if (body.trace !== undefined) extras.trace = body.trace;
  return extras;
}

/**
 * Converts a Converse response into the contract's envelope. Bedrock sends no completion id, so one is
 * made (`chatcmpl-<uuid>`); `model` is the deployment's Bedrock model id; `service_tier` comes from
 * `serviceTier.type` when Bedrock reports it.
 *
 * @throws InternalServerError when the body has no `output.message`.
 */
export function toChatCompletion(
  json: unknown,
  target: ProviderTarget,
  request?: ChatCompletionRequest,
): ChatCompletion {
  const body = asRecord(json);
  const output = asRecord(asRecord(body?.output)?.message);
  if (!body || !output) {
    throw new InternalServerError(
      `${target.provider}/${target.model} answered without \`output.message\``,
      errorOptions(target),
    );
  }
  const message = toAssistantMessage(output, isClaudeModel(target));
  const extras = requestedExtras(body, request);
  if (Object.keys(extras).length > 0)
    message.provider_specific_fields = { ...message.provider_specific_fields, ...extras };
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: bedrockModelId(target),
    system_fingerprint: null,
    choices: [{ index: 0, finish_reason: toFinishReason(body.stopReason), message }],
    usage: toBedrockUsage(body.usage),
    service_tier: asString(asRecord(body.serviceTier)?.type) ?? null,
  };
}
