import { randomUUID } from 'node:crypto';
import type { MockExchange, MockFormat } from '../../types/mock-format.js';
import type { MockBehavior, MockToolCall } from '../mock-behavior.js';
import { DEFAULT_CONTENT, mockUsage, pieces } from '../mock-text.js';
import { driveStream } from '../stream-driver.js';
import { GEMINI_PREFILL_REFUSAL, geminiPrefill } from './prefill.js';

// Google's canonical status and message per HTTP status (google.rpc.Code)
const ERRORS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry or report.' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'Deadline expired before operation could complete.' },
};

// AI Studio `/v1beta/models/{m}:method` and Vertex `.../publishers/google/models/{m}:method`, any prefix
const ROUTE =
  /(?:\/v1beta\/models|\/publishers\/google\/models)\/([^/:?]+):(generateContent|streamGenerateContent|batchEmbedContents|embedContent)(?:\?(.*))?$/;

type Json = Record<string, unknown>;
const bodyOf = (ex: MockExchange): Json => (ex.request.body ?? {}) as Json;
const isVertex = (ex: MockExchange) => ex.request.path.includes('/publishers/google/');

function json(ex: MockExchange, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  ex.res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

/** Gemini sends thought parts only when the request asked for them. */
function includeThoughts(ex: MockExchange): boolean {
  const config = bodyOf(ex).generationConfig as
    | { thinkingConfig?: { includeThoughts?: unknown } }
    | undefined;
  return config?.thinkingConfig?.includeThoughts === true;
}

/** A mock tool call's arguments as Gemini's `args` object; malformed JSON stays an empty object. */
function argsOf(call: MockToolCall): Json {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments) as Json;
  } catch {
    return {};
  }
}

function functionCallParts(b: MockBehavior): Json[] {
  // Gemini 3 signs the first function call of a turn
  return (b.toolCalls ?? []).map((call, i) => {
    const args = argsOf(call);
    const part: Json = { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args } };
    if (i === 0 && b.signature !== undefined) part.thoughtSignature = b.signature;
    return part;
  });
}

function usageMetadata(b: MockBehavior, content: string, final: boolean): Json {
  const usage = mockUsage(b, content);
  const thoughts = b.reasoning !== undefined ? Math.max(1, Math.ceil(b.reasoning.length / 4)) : 0;
  const candidates = final ? usage.completion_tokens : Math.max(1, Math.ceil(usage.completion_tokens / 2));
  return {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.prompt_tokens + candidates + thoughts,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.prompt_tokens }],
    ...(usage.cached_tokens !== undefined ? { cachedContentTokenCount: usage.cached_tokens } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** The envelope every `GenerateContentResponse` (or stream fragment) shares. */
function envelope(ex: MockExchange, model: string, responseId: string, candidate: Json, usage: Json): Json {
  return {
    candidates: [{ ...candidate, index: 0 }],
    usageMetadata: usage,
    modelVersion: model,
    ...(isVertex(ex) ? { createTime: new Date().toISOString() } : {}),
    responseId,
  };
}

function generateContent(ex: MockExchange, model: string): Json {
  const b = ex.behavior;
  const content = b.content ?? (b.toolCalls ? '' : DEFAULT_CONTENT);
  const parts: Json[] = [];
  if (b.reasoning !== undefined && includeThoughts(ex)) parts.push({ text: b.reasoning, thought: true });
  const calls = functionCallParts(b);
  if (content) {
    const text: Json = { text: content };
    if (calls.length === 0 && b.signature !== undefined) text.thoughtSignature = b.signature;
    parts.push(text);
  }
  parts.push(...calls);
  const candidate = { content: { parts, role: 'model' }, finishReason: 'STOP' };
  return envelope(ex, model, randomUUID().slice(0, 22), candidate, usageMetadata(b, content, true));
}

/** An SSE frame as Gemini writes it (`\r\n` line ends). */
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`;

function streamFrames(ex: MockExchange, model: string): { frames: string[]; terminal: string[] } {
  const b = ex.behavior;
  const id = randomUUID().slice(0, 22);
  const content = b.content ?? (b.toolCalls ? '' : DEFAULT_CONTENT);
  const partial = usageMetadata(b, content, false);
  const fragment = (parts: Json[], extra: Json = {}, usage = partial) =>
    frame(envelope(ex, model, id, { content: { parts, role: 'model' }, ...extra }, usage));
  const frames: string[] = [];
  if (b.reasoning !== undefined && includeThoughts(ex))
    for (const p of pieces(b.reasoning)) frames.push(fragment([{ text: p, thought: true }]));
  if (content) for (const p of pieces(content)) frames.push(fragment([{ text: p }]));
  const calls = functionCallParts(b);
  if (calls.length > 0) frames.push(fragment(calls));
  // the last fragment carries finishReason (Gemini has no other end marker) and, for a text answer,
  // the signature on an empty text part
  const last: Json =
    calls.length === 0 && b.signature !== undefined
      ? { text: '', thoughtSignature: b.signature }
      : { text: '' };
  const terminal = [fragment([last], { finishReason: 'STOP' }, usageMetadata(b, content, true))];
  return { frames, terminal };
}

function embedding(ex: MockExchange, index: number): { values: number[] } {
  const dims = ex.behavior.dimensions ?? 8;
  return {
    values: Array.from({ length: dims }, (_, i) => Number(((index + 1) * (i + 1) * 0.01).toFixed(4))),
  };
}

/**
 * Google's Gemini format, for AI Studio (`/v1beta/models/{m}:...`) and Vertex AI
 * (`/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:...`): `generateContent`,
 * `streamGenerateContent` (SSE with `?alt=sse`, else a JSON array), `batchEmbedContents` and
 * `embedContent`. Thought parts only when the request sets `includeThoughts`; the behavior's
 * `signature` is the `thoughtSignature` of the first function call (else of the text); usage has
 * `thoughtsTokenCount` when the model reasoned; errors are `{ error: { code, message, status } }`.
 */
export const geminiFormat: MockFormat = {
  name: 'gemini',
  prefill: { of: geminiPrefill, refusal: GEMINI_PREFILL_REFUSAL },
  handles: (method, path) => method === 'POST' && ROUTE.test(path),
  writeError(ex, status) {
    const known = ERRORS[status] ?? {
      status: status >= 500 ? 'INTERNAL' : 'UNKNOWN',
      message: 'Unknown error.',
    };
    json(ex, status, {
      error: {
        code: status,
        message: ex.behavior.error?.message ?? known.message,
        status: ex.behavior.error?.code ?? known.status,
      },
    });
  },
  async respond(ex) {
    const [, model = 'gemini-mock', method, query = ''] = ROUTE.exec(ex.request.path) ?? [];
    if (method === 'batchEmbedContents') {
      const requests = Array.isArray(bodyOf(ex).requests) ? (bodyOf(ex).requests as unknown[]) : [];
      return json(ex, 200, { embeddings: requests.map((_, i) => embedding(ex, i)) });
    }
    if (method === 'embedContent') return json(ex, 200, { embedding: embedding(ex, 0) });
    if (method === 'generateContent') return json(ex, 200, generateContent(ex, model));
    const { frames, terminal } = streamFrames(ex, model);
    if (!new URLSearchParams(query).has('alt')) {
      // without alt=sse Google streams one JSON array of the same fragments
      const items = [...frames, ...terminal].map((f) => f.slice('data: '.length).trim()).join(',\r\n');
      ex.res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', ...ex.behavior.headers });
      return void ex.res.end(`[${items}]`);
    }
    await driveStream(ex, {
      contentType: 'text/event-stream',
      frames,
      terminal,
      errorFrame: frame({ error: { code: 500, message: 'Mock stream failure', status: 'INTERNAL' } }),
    });
  },
};
