import { randomUUID } from 'node:crypto';
import { InternalServerError } from '../../errors/classes.js';
import { errorFromResponse } from '../../errors/map-error.js';
import type {
  AssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  ToolCall,
  Usage,
} from '../../types/index.js';
import { errorContextOf } from '../shared/error-context.js';
import { asFiniteNumber, asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { errorOptions } from '../shared/provider-errors.js';
import { toFinishReason } from './finish-reason.js';
import type { GeminiPart } from './wire-types.js';

/** What a candidate's parts say, sorted by kind. */
export interface ReadParts {
  reasoning: string;
  text: string;
  calls: Array<{ name: string; args: unknown; id?: string; signature?: string }>;
  /** Signatures of text and thought parts (function call signatures stay with their call). */
  signatures: string[];
}

/** Sorts a candidate's parts: thought text (only sent with `includeThoughts`), text, function calls. */
export function readParts(parts: unknown): ReadParts {
  const out: ReadParts = { reasoning: '', text: '', calls: [], signatures: [] };
  if (!Array.isArray(parts)) return out;
  for (const raw of parts as GeminiPart[]) {
    const signature = asString(raw?.thoughtSignature);
    const fn = asRecord(raw?.functionCall);
    if (fn) {
      const call: ReadParts['calls'][number] = { name: asString(fn.name) ?? '', args: fn.args ?? {} };
      const id = asString(fn.id);
      if (id) call.id = id;
      if (signature) call.signature = signature;
      out.calls.push(call);
      continue;
    }
    if (signature) out.signatures.push(signature);
    if (typeof raw?.text !== 'string') continue;
    if (raw.thought === true) out.reasoning += raw.text;
    else out.text += raw.text;
  }
  return out;
}

/** A Gemini function call as the contract's tool call (`call_<index>` when Gemini gives no id). */
export function toToolCall(call: ReadParts['calls'][number], index: number): ToolCall {
  const toolCall: ToolCall = {
    index,
    id: call.id ?? `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  };
  if (call.signature) toolCall.provider_specific_fields = { thought_signature: call.signature };
  return toolCall;
}

/**
 * `usageMetadata` as the contract's usage: reasoning tokens (`thoughtsTokenCount`) count as
 * completion tokens and are also reported in `completion_tokens_details.reasoning_tokens`.
 */
export function toGeminiUsage(value: unknown): Usage {
  const u = asRecord(value);
  const prompt = asFiniteNumber(u?.promptTokenCount) ?? 0;
  const thoughts = asFiniteNumber(u?.thoughtsTokenCount) ?? 0;
  const completion = (asFiniteNumber(u?.candidatesTokenCount) ?? 0) + thoughts;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: asFiniteNumber(u?.totalTokenCount) ?? prompt + completion,
  };
  if (u?.thoughtsTokenCount !== undefined) usage.completion_tokens_details = { reasoning_tokens: thoughts };
  if (u?.cachedContentTokenCount !== undefined)
    usage.prompt_tokens_details = { cached_tokens: asFiniteNumber(u.cachedContentTokenCount) ?? 0 };
  return usage;
}

/** Throws ContentPolicyViolationError for a prompt Gemini blocked (`promptFeedback.blockReason`, no candidates). */
export function assertPromptNotBlocked(body: Record<string, unknown>, target: ProviderTarget): void {
  const reason = asString(asRecord(body.promptFeedback)?.blockReason);
  const candidates = body.candidates;
  if (!reason || (Array.isArray(candidates) && candidates.length > 0)) return;
  throw errorFromResponse(
    { status: 400, message: `the prompt was blocked (${reason})`, code: 'content_policy_violation' },
    errorContextOf(target),
  );
}

function toMessage(parts: ReadParts): AssistantMessage {
  const message: AssistantMessage = {
    role: 'assistant',
    content: parts.text === '' ? null : parts.text,
    tool_calls: parts.calls.length > 0 ? parts.calls.map(toToolCall) : null,
    function_call: null,
  };
  if (parts.reasoning !== '') message.reasoning_content = parts.reasoning;
  if (parts.signatures.length > 0)
    message.provider_specific_fields = { thought_signatures: parts.signatures };
  return message;
}

function toChoice(raw: unknown, i: number): ChatCompletionChoice {
  const candidate = asRecord(raw) ?? {};
  const parts = readParts(asRecord(candidate.content)?.parts);
  const called = parts.calls.length > 0;
  return {
    index: asFiniteNumber(candidate.index) ?? i,
    finish_reason:
      toFinishReason(asString(candidate.finishReason), called) ?? (called ? 'tool_calls' : 'stop'),
    message: toMessage(parts),
  };
}

/** Seconds since the epoch of a Vertex `createTime`, else now. */
export function createdOf(body: Record<string, unknown>): number {
  const time = Date.parse(asString(body.createTime) ?? '');
  return Math.floor((Number.isNaN(time) ? Date.now() : time) / 1000);
}

/**
 * A `GenerateContentResponse` as the contract's chat completion: `responseId` -> id, `modelVersion`
 * -> model, one choice per candidate. A blocked prompt throws ContentPolicyViolationError.
 */
export function toChatCompletion(json: unknown, target: ProviderTarget): ChatCompletion {
  const body = asRecord(json) ?? {};
  assertPromptNotBlocked(body, target);
  if (!Array.isArray(body.candidates) || body.candidates.length === 0) {
    throw new InternalServerError(
      `${target.provider}/${target.model} answered without candidates`,
      errorOptions(target),
    );
  }
  return {
    id: asString(body.responseId) ?? `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: createdOf(body),
    model: asString(body.modelVersion) ?? target.model,
    system_fingerprint: null,
    choices: body.candidates.map(toChoice),
    usage: toGeminiUsage(body.usageMetadata),
    service_tier: asString(asRecord(body.usageMetadata)?.serviceTier) ?? null,
  };
}
