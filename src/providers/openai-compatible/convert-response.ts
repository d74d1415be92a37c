import { randomUUID } from 'node:crypto';
import { InternalServerError } from '../../errors/classes.js';
import type {
  AssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  FinishReason,
  ToolCall,
  Usage,
} from '../../types/index.js';
import { asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

/** Usage with all three counts present (providers omit `total_tokens` at times). */
export function toUsage(value: unknown): Usage {
  const u = asRecord(value);
  const prompt = num(u?.prompt_tokens);
  const completion = num(u?.completion_tokens);
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: num(u?.total_tokens, prompt + completion),
  };
  if (u?.completion_tokens_details)
    usage.completion_tokens_details = u.completion_tokens_details as Usage['completion_tokens_details'];
  if (u?.prompt_tokens_details)
    usage.prompt_tokens_details = u.prompt_tokens_details as Usage['prompt_tokens_details'];
  return usage;
}

function toToolCalls(value: unknown): ToolCall[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((raw, i) => {
    const call = asRecord(raw) ?? {};
    const fn = asRecord(call.function) ?? {};
    return {
      index: num(call.index, i),
      id: asString(call.id) ?? `call_${i}`,
      type: 'function',
      function: { name: asString(fn.name) ?? '', arguments: asString(fn.arguments) ?? '' },
    };
  });
}

const PROVIDER_FIELDS = ['refusal', 'annotations', 'audio', 'reasoning_details'] as const;

/** The contract's assistant message from an OpenAI-compatible `message`. */
export function toAssistantMessage(value: unknown): AssistantMessage {
  const m = asRecord(value) ?? {};
  const message: AssistantMessage = {
    role: 'assistant',
    content: asString(m.content) ?? null,
    tool_calls: toToolCalls(m.tool_calls),
    function_call: null,
  };
  // deepseek and xAI answer `reasoning_content`; OpenRouter answers `reasoning`
  const reasoning = asString(m.reasoning_content) ?? asString(m.reasoning);
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  const present = PROVIDER_FIELDS.filter((key) => m[key] !== undefined && m[key] !== null);
  if (present.length > 0)
    message.provider_specific_fields = Object.fromEntries(present.map((k) => [k, m[k]]));
  return message;
}

/** Converts an OpenAI-compatible chat completion body into the contract's envelope. */
export function toChatCompletion(json: unknown, target: ProviderTarget): ChatCompletion {
  const body = asRecord(json);
  if (!body || !Array.isArray(body.choices)) {
    throw new InternalServerError(`${target.provider}/${target.model} answered without \`choices\``, {
      provider: target.provider,
      model: target.model,
      modelId: target.modelId,
    });
  }
  const choices: ChatCompletionChoice[] = body.choices.map((raw: unknown, i: number) => {
    const choice = asRecord(raw) ?? {};
    return {
      index: num(choice.index, i),
      finish_reason: (asString(choice.finish_reason) as FinishReason | undefined) ?? null,
      message: toAssistantMessage(choice.message),
    };
  });
  return {
    id: asString(body.id) ?? `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: num(body.created, Math.floor(Date.now() / 1000)),
    model: asString(body.model) ?? target.model,
    system_fingerprint: asString(body.system_fingerprint) ?? null,
    choices,
    usage: toUsage(body.usage),
    service_tier: asString(body.service_tier) ?? null,
  };
}
