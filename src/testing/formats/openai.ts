import { randomUUID } from 'node:crypto';
import { argumentsText, DEFAULT_CONTENT, mockUsage, pieces } from '../mock-text.js';
import { driveStream, sseFrame } from '../stream-driver.js';
import type { MockExchange, MockFormat } from './format.js';

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'permission_error', code: null },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

const body = (ex: MockExchange) => (ex.request.body ?? {}) as Record<string, unknown>;
const modelOf = (ex: MockExchange) => String(body(ex).model ?? 'mock-model');

function json(ex: MockExchange, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  ex.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

function toolCalls(ex: MockExchange) {
  return (ex.behavior.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${index}_${randomUUID().slice(0, 8)}`,
    type: 'function' as const,
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
}

function chatCompletion(ex: MockExchange) {
  const b = ex.behavior;
  const content = b.content ?? (b.toolCalls ? null : DEFAULT_CONTENT);
  const calls = toolCalls(ex);
  const usage = mockUsage(b, content ?? '');
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(ex),
    system_fingerprint: 'fp_mock',
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content,
          ...(b.reasoning !== undefined ? { reasoning_content: b.reasoning } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          refusal: null,
        },
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    service_tier: 'default',
  };
}

function chatChunks(ex: MockExchange): string[] {
  const b = ex.behavior;
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = modelOf(ex);
  const frame = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
    sseFrame({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_mock',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
  const frames = [frame({ role: 'assistant', content: '' })];
  if (b.reasoning !== undefined)
    for (const p of pieces(b.reasoning)) frames.push(frame({ reasoning_content: p }));
  const content = b.content ?? (b.toolCalls ? '' : DEFAULT_CONTENT);
  if (content) for (const p of pieces(content)) frames.push(frame({ content: p }));
  toolCalls(ex).forEach((call, index) => {
    frames.push(
      frame({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      }),
    );
    frames.push(frame({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  frames.push(frame({}, b.toolCalls ? 'tool_calls' : 'stop'));
  const options = body(ex).stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) {
    const usage = mockUsage(b, content);
    frames.push(
      sseFrame({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  }
  return frames;
}

function embeddings(ex: MockExchange) {
  const input = body(ex).input;
  const inputs = Array.isArray(input) ? input : [input];
  const dims = ex.behavior.dimensions ?? 8;
  return {
    object: 'list',
    data: inputs.map((_, index) => ({
      object: 'embedding',
      index,
      embedding: Array.from({ length: dims }, (_, i) => Number(((index + 1) * (i + 1) * 0.01).toFixed(4))),
    })),
    model: modelOf(ex),
    usage: { prompt_tokens: inputs.length * 4, total_tokens: inputs.length * 4 },
  };
}

function textCompletion(ex: MockExchange) {
  const text = ex.behavior.content ?? DEFAULT_CONTENT;
  const usage = mockUsage(ex.behavior, text);
  return {
    id: `cmpl-${randomUUID()}`,
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(ex),
    choices: [{ index: 0, text, finish_reason: 'stop', logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function images(ex: MockExchange) {
  const n = Number(body(ex).n ?? 1);
  return {
    created: Math.floor(Date.now() / 1000),
    data: Array.from({ length: n }, (_, i) => ({
      url: `https://mock.invalid/image-${i}.png`,
      revised_prompt: body(ex).prompt,
    })),
  };
}

const ROUTES: Array<[suffix: string, answer: (ex: MockExchange) => unknown]> = [
  ['/chat/completions', chatCompletion],
  ['/embeddings', embeddings],
  ['/completions', textCompletion],
  ['/images/generations', images],
];

function routeOf(path: string) {
  const clean = path.split('?')[0] ?? path;
  return ROUTES.find(([suffix]) => clean.endsWith(suffix));
}

/**
 * The OpenAI REST format (also Azure's `/openai/deployments/{d}/...` paths, since the suffix is the same):
 * chat completions (plain and SSE), embeddings, text completions, image generation.
 */
export const openaiFormat: MockFormat = {
  name: 'openai',
  handles: (method, path) => method === 'POST' && routeOf(path) !== undefined,
  writeError(ex, status) {
    const known = ERROR_TYPES[status] ?? { type: 'api_error', code: null };
    json(ex, status, {
      error: {
        message: ex.behavior.error?.message ?? `Mock failure with status ${status}`,
        type: ex.behavior.error?.type ?? known.type,
        param: null,
        code: ex.behavior.error?.code ?? known.code,
      },
    });
  },
  async respond(ex) {
    const route = routeOf(ex.request.path)!;
    if (route[0] === '/chat/completions' && body(ex).stream === true) {
      await driveStream(ex, {
        contentType: 'text/event-stream',
        frames: chatChunks(ex),
        terminal: ['data: [DONE]\n\n'],
        errorFrame: sseFrame({ error: { message: 'Mock stream failure', type: 'server_error', code: null } }),
      });
      return;
    }
    json(ex, 200, route[1](ex));
  },
};
