import { randomUUID } from 'node:crypto';
import { InternalServerError } from '../../errors/classes.js';
import { errorFromResponse } from '../../errors/map-error.js';
import type {
  AssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  FinishReason,
  ToolCall,
  Usage,
} from '../../types/index.js';
import { errorContextOf } from '../shared/error-context.js';
import { asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { inBandError } from './error-map.js';
import { mapOpenAIFinishReason } from './finish-reason.js';
import type { ResponseHooks } from './options.js';

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

/** The contract usage of a raw `usage` object, with the provider's own fields applied. */
export function usageOf(value: unknown, hooks: ResponseHooks): Usage {
  const usage = toUsage(value);
  return hooks.adaptUsage ? hooks.adaptUsage(usage, asRecord(value) ?? {}) : usage;
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

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

/** The contract's assistant message from an OpenAI-compatible `message`. */
export function toAssistantMessage(value: unknown): AssistantMessage {
  const m = asRecord(value) ?? {};
  const message: AssistantMessage = {
    role: 'assistant',
    content: asString(m.content) ?? null,
    tool_calls: toToolCalls(m.tool_calls),
    function_call: null,
  };
  // deepseek and xAI answer `reasoning_content`; OpenRouter (and vLLM-style servers) answer `reasoning`
  const reasoning = asString(m.reasoning_content) ?? asString(m.reasoning);
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  for (const key of PROVIDER_FIELDS) {
    if (!present(m[key])) continue;
    message.provider_specific_fields ??= {};
    message.provider_specific_fields[key] = m[key];
  }
  return message;
}

/** The contract `finish_reason` of a raw value, through the provider's hook when it has one. */
export function finishReasonOf(
  raw: unknown,
  target: ProviderTarget,
  hooks: ResponseHooks,
): FinishReason | null {
  const value = asString(raw);
  if (!value) return null;
  return hooks.finishReason ? hooks.finishReason(value, target) : mapOpenAIFinishReason(value);
}

function failure(target: ProviderTarget, what: string): InternalServerError {
  return new InternalServerError(`${target.provider}/${target.model} answered ${what}`, {
    provider: target.provider,
    model: target.model,
    modelId: target.modelId,
  });
}

/**
 * Converts an OpenAI-compatible chat completion body into the contract's envelope. A body that is an
 * error object (some providers answer 200 with one) throws its contract class.
 */
export function toChatCompletion(
  json: unknown,
  target: ProviderTarget,
  hooks: ResponseHooks = {},
): ChatCompletion {
  const body = asRecord(json);
  if (!body) throw failure(target, 'a body that is not a JSON object');
  if (!Array.isArray(body.choices)) {
    const error = inBandError(body);
    if (error) {
      throw errorFromResponse(error, errorContextOf(target));
    }
    throw failure(target, 'without `choices`');
  }
  const choices: ChatCompletionChoice[] = body.choices.map((raw: unknown, i: number) => {
    const choice = asRecord(raw) ?? {};
    return {
      index: num(choice.index, i),
      finish_reason: finishReasonOf(choice.finish_reason, target, hooks),
      message: toAssistantMessage(choice.message),
    };
  });
  const completion: ChatCompletion = {
    id: asString(body.id) || `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: num(body.created, Math.floor(Date.now() / 1000)),
    model: asString(body.model) || target.model,
    system_fingerprint: asString(body.system_fingerprint) ?? null,
    choices,
    usage: usageOf(body.usage, hooks),
    service_tier: asString(body.service_tier) ?? null,
  };
  return hooks.adaptCompletion ? hooks.adaptCompletion(completion, body, target) : completion;
}
