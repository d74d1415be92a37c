import { randomUUID } from 'node:crypto';
import type { MockExchange, MockFormat } from '../../types/mock-format.js';
import type { MockToolCall } from '../mock-behavior.js';
import { DEFAULT_CONTENT, mockUsage, pieces } from '../mock-text.js';
import { driveStream, sseFrame } from '../stream-driver.js';
import { ANTHROPIC_PREFILL_REFUSAL, anthropicPrefillProblem, assistantPrefill } from './prefill.js';

/** The signature of mock thinking blocks when a behavior sets `reasoning` but no `signature`. */
export const MOCK_THINKING_SIGNATURE = 'EqQBCgIYAhIMmock+thinking+signature==';

// The error `type` Anthropic answers with for each status (API reference, "Errors").
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

type Json = Record<string, unknown>;

const bodyOf = (ex: MockExchange) => (ex.request.body ?? {}) as Json;
const cleanPath = (path: string) => path.split('?')[0] ?? path;

// Vertex requests carry the model in the path, not the body.
function modelOf(ex: MockExchange): string {
  const model = bodyOf(ex).model;
  if (typeof model === 'string') return model;
  return /\/models\/([^/:]+):/.exec(cleanPath(ex.request.path))?.[1] ?? 'mock-model';
}

const isStream = (ex: MockExchange) =>
  bodyOf(ex).stream === true || cleanPath(ex.request.path).endsWith(':streamRawPredict');

function toolInput(call: MockToolCall): Json {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments) as Json;
  } catch {
    return {};
  }
}

function toolUses(ex: MockExchange): Json[] {
  return (ex.behavior.toolCalls ?? []).map((call, i) => ({
    type: 'tool_use',
    id: call.id ?? `toolu_mock_${i}_${randomUUID().slice(0, 8)}`,
    name: call.name,
    input: toolInput(call),
  }));
}

/** The content blocks of the answer, in Anthropic's order: thinking, redacted thinking, text, tool use. */
function contentBlocks(ex: MockExchange): Json[] {
  const b = ex.behavior;
  const blocks: Json[] = [];
  if (b.reasoning !== undefined)
    blocks.push({
      type: 'thinking',
      thinking: b.reasoning,
      signature: b.signature ?? MOCK_THINKING_SIGNATURE,
    });
  if (b.redactedReasoning !== undefined)
    blocks.push({ type: 'redacted_thinking', data: b.redactedReasoning });
  const text = b.content ?? (b.toolCalls ? '' : DEFAULT_CONTENT);
  if (text !== '') blocks.push({ type: 'text', text });
  blocks.push(...toolUses(ex));
  return blocks;
}

function usageOf(ex: MockExchange, blocks: readonly Json[]) {
  const text = blocks.map((block) => String(block.text ?? block.thinking ?? '')).join('');
  const usage = mockUsage(ex.behavior, text);
  const read = usage.cached_tokens ?? 0;
  const written = usage.cache_creation_tokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - read - written),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
    output_tokens: usage.completion_tokens,
    service_tier: 'standard',
  };
}

const stopReason = (ex: MockExchange) => (ex.behavior.toolCalls?.length ? 'tool_use' : 'end_turn');

function message(ex: MockExchange): Json {
  const content = contentBlocks(ex);
  return {
    id: `msg_mock_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    type: 'message',
    role: 'assistant',
    model: modelOf(ex),
    content,
    stop_reason: stopReason(ex),
    stop_sequence: null,
    usage: usageOf(ex, content),
  };
}

const event = (data: Json) => sseFrame(data, String(data.type));
const PING = event({ type: 'ping' });

/** The frames of one content block: start, its deltas (a ping among them, as the API sends), stop. */
function blockFrames(block: Json, index: number): string[] {
  const start = (content_block: Json) => event({ type: 'content_block_start', index, content_block });
  const delta = (d: Json) => event({ type: 'content_block_delta', index, delta: d });
  const frames: string[] = [];
  if (block.type === 'thinking') {
    frames.push(start({ type: 'thinking', thinking: '' }));
    for (const p of pieces(String(block.thinking)))
      frames.push(delta({ type: 'thinking_delta', thinking: p }));
    frames.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else if (block.type === 'redacted_thinking') {
    frames.push(start(block));
  } else if (block.type === 'text') {
    frames.push(start({ type: 'text', text: '' }));
    pieces(String(block.text)).forEach((p, i) => {
      frames.push(delta({ type: 'text_delta', text: p }));
      if (i === 0) frames.push(PING);
    });
  } else {
    frames.push(start({ ...block, input: {} }));
    const json = JSON.stringify(block.input);
    const half = Math.ceil(json.length / 2);
    frames.push(delta({ type: 'input_json_delta', partial_json: '' }));
    for (const part of [json.slice(0, half), json.slice(half)])
      if (part) frames.push(delta({ type: 'input_json_delta', partial_json: part }));
  }
  frames.push(event({ type: 'content_block_stop', index }));
  return frames;
}

function streamFrames(ex: MockExchange): string[] {
  const whole = message(ex);
  const usage = whole.usage as Json;
  const frames = [
    event({
      type: 'message_start',
      message: {
        ...whole,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    PING,
  ];
  (whole.content as Json[]).forEach((block, i) => {
    frames.push(...blockFrames(block, i));
  });
  frames.push(
    event({
      type: 'message_delta',
      delta: { stop_reason: whole.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  return frames;
}

function json(ex: MockExchange, status: number, value: unknown, requestId: string): void {
  const text = JSON.stringify(value);
  ex.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': requestId,
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

/**
 * The Anthropic Messages format: `POST .../v1/messages`, and Claude on Vertex AI's `:rawPredict` /
 * `:streamRawPredict`. Answers real Anthropic shapes: thinking blocks with signatures, redacted
 * thinking, tool use, usage with cache counts; streams with `ping` events, an `error` event for
 * `stream.errorAfter` and `message_stop` as the terminal frame; errors as `{ type: 'error', error }`.
 */
export const anthropicFormat: MockFormat = {
  name: 'anthropic',
  prefill: { of: assistantPrefill, refusal: ANTHROPIC_PREFILL_REFUSAL, problem: anthropicPrefillProblem },
  handles: (method, path) => {
    const clean = cleanPath(path);
    return (
      method === 'POST' &&
      (clean.endsWith('/v1/messages') || clean.endsWith(':rawPredict') || clean.endsWith(':streamRawPredict'))
    );
  },
  writeError(ex, status) {
    const error = ex.behavior.error;
    const type =
      error?.type ??
      error?.code ??
      ERROR_TYPES[status] ??
      (status >= 500 ? 'api_error' : 'invalid_request_error');
    const message = error?.message ?? (status === 529 ? 'Overloaded' : `Mock failure with status ${status}`);
    const requestId = `req_mock_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    json(ex, status, { type: 'error', error: { type, message }, request_id: requestId }, requestId);
  },
  async respond(ex) {
    if (!isStream(ex)) {
      json(ex, 200, message(ex), `req_mock_${randomUUID().replaceAll('-', '').slice(0, 20)}`);
      return;
    }
    const error = ex.behavior.error;
    await driveStream(ex, {
      contentType: 'text/event-stream',
      frames: streamFrames(ex),
      terminal: [event({ type: 'message_stop' })],
      errorFrame: event({
        type: 'error',
        error: { type: error?.type ?? 'overloaded_error', message: error?.message ?? 'Overloaded' },
      }),
    });
  },
};
