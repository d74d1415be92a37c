import { randomUUID } from 'node:crypto';
import type { MockExchange } from '../../types/mock-format.js';
import { argumentsText, DEFAULT_CONTENT, mockUsage, openaiUsage, pieces } from '../mock-text.js';
import { sseFrame } from '../stream-driver.js';
import {
  azureContentFilterResults,
  azurePromptFilterResults,
  isAzurePath,
  openrouterReasoningDeltas,
  openrouterReasoningDetails,
  variantOf,
} from './openai-variants.js';

type Json = Record<string, unknown>;

export const bodyOf = (ex: MockExchange) => (ex.request.body ?? {}) as Json;
export const modelOf = (ex: MockExchange) => String(bodyOf(ex).model ?? 'mock-model');

function toolCalls(ex: MockExchange) {
  return (ex.behavior.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${index}_${randomUUID().slice(0, 8)}`,
    type: 'function' as const,
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
}

// Azure's completion filter cuts the answer after its first piece.
function answerText(ex: MockExchange): string | null {
  const b = ex.behavior;
  const content = b.content ?? (b.toolCalls ? null : DEFAULT_CONTENT);
  if (content === null || variantOf(b).contentFilter !== 'completion') return content;
  return pieces(content)[0] ?? '';
}

const finishOf = (ex: MockExchange) =>
  variantOf(ex.behavior).contentFilter === 'completion'
    ? 'content_filter'
    : ex.behavior.toolCalls
      ? 'tool_calls'
      : 'stop';

function reasoningFields(ex: MockExchange): Json {
  const b = ex.behavior;
  if (variantOf(b).reasoningFormat !== 'openrouter')
    return b.reasoning !== undefined ? { reasoning_content: b.reasoning } : {};
  const details = openrouterReasoningDetails(b, modelOf(ex));
  return { reasoning: b.reasoning ?? null, ...(details.length > 0 ? { reasoning_details: details } : {}) };
}

/** A chat completion in the OpenAI format, with the behavior's variant (OpenRouter reasoning, Azure filters). */
export function chatCompletion(ex: MockExchange): Json {
  const content = answerText(ex);
  const calls = toolCalls(ex);
  const usage = mockUsage(ex.behavior, content ?? '');
  const azure = isAzurePath(ex);
  const finish = finishOf(ex);
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(ex),
    system_fingerprint: 'fp_mock',
    ...(azure ? { prompt_filter_results: azurePromptFilterResults() } : {}),
    choices: [
      {
        index: 0,
        finish_reason: finish,
        message: {
          role: 'assistant',
          content,
          ...reasoningFields(ex),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          refusal: null,
        },
        logprobs: null,
        ...(azure ? { content_filter_results: azureContentFilterResults(finish === 'content_filter') } : {}),
      },
    ],
    usage: openaiUsage(usage),
    service_tier: 'default',
  };
}

function reasoningDeltas(ex: MockExchange): Json[] {
  const b = ex.behavior;
  const variant = variantOf(b);
  const textPieces = b.reasoning !== undefined ? pieces(b.reasoning) : [];
  const deltas =
    variant.reasoningFormat === 'openrouter'
      ? openrouterReasoningDeltas(b, modelOf(ex), textPieces)
      : textPieces.map((p) => ({ reasoning_content: p }));
  const times = Math.max(1, variant.repeatReasoningDeltas ?? 1);
  return deltas.flatMap((d) => Array.from({ length: times }, () => d));
}

function toolCallDeltas(ex: MockExchange): Json[] {
  const whole = variantOf(ex.behavior).wholeToolCalls === true;
  return toolCalls(ex).flatMap((call) =>
    whole
      ? [{ tool_calls: [call] }]
      : [
          { tool_calls: [{ ...call, function: { name: call.function.name, arguments: '' } }] },
          { tool_calls: [{ index: call.index, function: { arguments: call.function.arguments } }] },
        ],
  );
}

/** The SSE frames of a streamed chat completion (without the terminal `[DONE]`). */
export function chatChunks(ex: MockExchange): string[] {
  const variant = variantOf(ex.behavior);
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = modelOf(ex);
  const azure = isAzurePath(ex);
  const frame = (delta: Json, finish: string | null = null) =>
    sseFrame({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_mock',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
  const frames: string[] = [];
  if (variant.keepAlive) frames.push(`: ${variant.keepAlive}\n\n`);
  if (azure)
    frames.push(
      sseFrame({
        choices: [],
        created: 0,
        id: '',
        model: '',
        object: '',
        prompt_filter_results: azurePromptFilterResults(),
      }),
    );
  frames.push(frame({ role: 'assistant', content: '' }));
  for (const delta of reasoningDeltas(ex)) frames.push(frame(delta));
  const content = answerText(ex) ?? '';
  if (content) for (const p of pieces(content)) frames.push(frame({ content: p }));
  for (const delta of toolCallDeltas(ex)) frames.push(frame(delta));
  frames.push(frame({}, finishOf(ex)));
  const options = bodyOf(ex).stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) {
    const usage = mockUsage(ex.behavior, content);
    frames.push(
      sseFrame({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: openaiUsage(usage),
      }),
    );
  }
  return frames;
}
