/**
 * A user-written provider, as docs/providers/custom-provider.md describes it: "Acme" speaks an
 * OpenAI-like chat format at `{api_base}/acme/v1/chat`, streams SSE ending with `data: [DONE]`, reports
 * errors as `{ error: { kind, text } }`, and takes reasoning as `acme_thinking: { level }`. Written
 * against the public API only.
 */
import { randomUUID } from 'node:crypto';
import {
  APIConnectionError,
  type ChatCompletion,
  type ChatCompletionChunk,
  InternalServerError,
  type ProviderAdapter,
  type ProviderTarget,
  type WireRequest,
} from '../../src/index.js';
import type { MockExchange, MockFormat } from '../../src/testing/index.js';

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

function post(target: ProviderTarget, body: Json): WireRequest {
  return {
    url: `${target.apiBase}/acme/v1/chat`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey ?? ''}` },
    body: JSON.stringify(body),
  };
}

function completion(json: unknown, target: ProviderTarget): ChatCompletion {
  const body = object(json);
  const message = object(object((body.choices as unknown[] | undefined)?.[0]).message);
  if (typeof message.content !== 'string') {
    throw new InternalServerError(`acme/${target.model} answered without content`, {
      provider: target.provider,
      model: target.model,
      modelId: target.modelId,
    });
  }
  const usage = object(body.usage);
  const prompt = Number(usage.input ?? 0);
  const completionTokens = Number(usage.output ?? 0);
  return {
    id: String(body.id ?? randomUUID()),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: target.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: message.content, tool_calls: null, function_call: null },
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    },
    service_tier: null,
  };
}

async function* chunks(body: AsyncIterable<Uint8Array>, target: ProviderTarget) {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of body) {
    buffered += decoder.decode(bytes, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const data = buffered.slice(0, end).replace(/^data: /, '');
      buffered = buffered.slice(end + 2);
      if (data === '[DONE]') return;
      const delta = String(object(JSON.parse(data)).delta ?? '');
      const chunk: ChatCompletionChunk = {
        id: 'acme-stream',
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model: target.model,
        choices: [{ index: 0, delta: { content: delta }, finish_reason: null }],
      };
      yield chunk;
      end = buffered.indexOf('\n\n');
    }
  }
  // a cut stream is never a silent success
  throw new APIConnectionError(`acme/${target.model} stream ended before [DONE]`, {
    provider: target.provider,
    model: target.model,
    modelId: target.modelId,
  });
}

/** The mock server side of Acme's format, for `startMockProvider({ providers: [acmeAdapter] })`. */
const acmeMockFormat: MockFormat = {
  name: 'acme',
  handles: (method, path) => method === 'POST' && path.includes('/acme/v1/chat'),
  writeError(exchange: MockExchange, status: number) {
    const { error = {}, headers = {} } = exchange.behavior;
    exchange.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    const kind = error.code ?? (status === 429 ? 'acme_busy' : 'acme_failure');
    exchange.res.end(JSON.stringify({ error: { kind, text: error.message ?? 'Acme could not answer' } }));
  },
  async respond(exchange: MockExchange) {
    const content = exchange.behavior.content ?? 'Hello from Acme.';
    const request = object(exchange.request.body);
    if (request.stream === true) {
      exchange.res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of content.split(' '))
        exchange.res.write(`data: ${JSON.stringify({ delta: word })}\n\n`);
      exchange.res.end('data: [DONE]\n\n');
      return;
    }
    exchange.res.writeHead(200, { 'content-type': 'application/json' });
    exchange.res.end(
      JSON.stringify({
        id: 'acme-1',
        choices: [{ message: { role: 'assistant', content } }],
        usage: { input: 3, output: 4 },
        echo: request,
      }),
    );
  },
};

/** Acme's reasoning field: a thinking level, or none. */
function acmeReasoning(request: { reasoning_effort?: string; thinking?: { type: string } }): Json {
  if (request.thinking?.type === 'disabled' || request.reasoning_effort === 'none') return {};
  return request.reasoning_effort ? { acme_thinking: { level: request.reasoning_effort } } : {};
}

export const acmeAdapter: ProviderAdapter = {
  name: 'acme',
  prefixes: ['acme', 'acme-cloud'],
  defaults: { apiBase: 'https://api.acme.example', apiKeyEnv: 'ACME_API_KEY' },
  chat: {
    build: (request, target) =>
      post(target, { model: target.model, messages: request.messages, ...acmeReasoning(request) }),
    parse: (json, target) => completion(json, target),
  },
  chatStream: {
    build: (request, target) =>
      post(target, {
        model: target.model,
        messages: request.messages,
        stream: true,
        ...acmeReasoning(request),
      }),
    parse: (body, target) => chunks(body, target),
  },
  readError(status, bodyText, headers) {
    const error = object(object(safeJson(bodyText)).error);
    const message = typeof error.text === 'string' ? error.text : bodyText.slice(0, 200);
    return { status, headers, message, code: typeof error.kind === 'string' ? error.kind : undefined };
  },
  errorCodes: {
    acme_busy: 'rate_limit',
    acme_out_of_credit: 'insufficient_quota',
    acme_overloaded: 'service_unavailable',
    acme_prompt_too_long: 'context_window_exceeded',
  },
  reasoningParams: (request) => acmeReasoning(request),
  mockFormat: acmeMockFormat,
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
