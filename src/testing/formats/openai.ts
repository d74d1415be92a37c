import { randomUUID } from 'node:crypto';
import type { MockExchange, MockFormat } from '../../types/mock-format.js';
import { DEFAULT_CONTENT, mockUsage } from '../mock-text.js';
import { driveStream, sseFrame } from '../stream-driver.js';
import { bodyOf, chatChunks, chatCompletion, modelOf } from './openai-chat.js';
import { MEDIA_ROUTES } from './openai-media.js';
import { azurePromptFilteredError, variantOf } from './openai-variants.js';
import { OPENAI_PREFILL_REFUSAL, openaiPrefill } from './prefill.js';

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'permission_error', code: null },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

const body = bodyOf;

function json(ex: MockExchange, status: number, value: unknown): void {
  // DeepSeek and OpenRouter send blank lines while a plain answer is pending
  const pad = variantOf(ex.behavior).keepAlive ? '\n\n' : '';
  const text = pad + JSON.stringify(value);
  ex.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

function embeddings(ex: MockExchange) {
  const input = body(ex).input;
  const inputs = Array.isArray(input) ? input : [input];
  const dims = ex.behavior.dimensions ?? 8;
  // OpenAI answers `encoding_format: 'base64'` (what its SDKs ask for by default) with little-endian float32s
  const base64 = body(ex).encoding_format === 'base64';
  return {
    object: 'list',
    data: inputs.map((_, index) => {
      const vector = Array.from({ length: dims }, (_, i) =>
        Number(((index + 1) * (i + 1) * 0.01).toFixed(4)),
      );
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    }),
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

// OpenAI answers 400 for an image count outside 1..10 (the mock must not answer 200 with no images)
const imageCountProblem = (n: unknown): string | undefined =>
  n === undefined || (Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 10)
    ? undefined
    : `Invalid 'n': expected an integer from 1 to 10, got ${JSON.stringify(n)}.`;

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

// OpenRouter reports a failure mid-stream inside a chunk, with `finish_reason: 'error'` (its "Errors" page).
function streamErrorFrame(ex: MockExchange): string {
  if (variantOf(ex.behavior).reasoningFormat !== 'openrouter')
    return sseFrame({ error: { message: 'Mock stream failure', type: 'server_error', code: null } });
  return sseFrame({
    id: `gen-${randomUUID()}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(ex),
    provider: 'Mock',
    error: { code: 'server_error', message: 'Mock stream failure' },
    choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
  });
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

function mediaRouteOf(path: string) {
  const clean = path.split('?')[0] ?? path;
  return MEDIA_ROUTES.find(([suffix]) => clean.endsWith(suffix));
}

/**
 * The OpenAI REST format: chat completions (plain and SSE), embeddings, text completions, image
 * generation, audio transcriptions (multipart) and speech, moderations, and Cohere-style rerank. It also serves Azure's `/openai/deployments/{d}/...?api-version=...` paths (the query is
 * kept in the recorded `path`), answering there with Azure's content-filter annotations and its
 * prompt-filter first chunk. The behavior's `openaiVariant` picks the other providers' variations:
 * OpenRouter's `reasoning` + `reasoning_details`, xAI's repeated reasoning deltas and whole tool calls,
 * keep-alives, Azure's content filter.
 */
export const openaiFormat: MockFormat = {
  name: 'openai',
  prefill: { of: openaiPrefill, refusal: OPENAI_PREFILL_REFUSAL },
  handles: (method, path) =>
    method === 'POST' && (routeOf(path) !== undefined || mediaRouteOf(path) !== undefined),
  writeError(ex, status) {
    if (status === 400 && variantOf(ex.behavior).contentFilter === 'prompt') {
      json(ex, 400, azurePromptFilteredError(ex.behavior.error?.message));
      return;
    }
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
    const media = mediaRouteOf(ex.request.path);
    if (media) return media[1](ex);
    const route = routeOf(ex.request.path)!;
    const chat = route[0] === '/chat/completions';
    if (chat && variantOf(ex.behavior).contentFilter === 'prompt') {
      openaiFormat.writeError(ex, 400);
      return;
    }
    if (chat && body(ex).stream === true) {
      await driveStream(ex, {
        contentType: 'text/event-stream',
        frames: chatChunks(ex),
        terminal: ['data: [DONE]\n\n'],
        errorFrame: streamErrorFrame(ex),
      });
      return;
    }
    const countProblem = route[0] === '/images/generations' && imageCountProblem(body(ex).n);
    if (countProblem) {
      json(ex, 400, {
        error: { message: countProblem, type: 'invalid_request_error', param: 'n', code: null },
      });
      return;
    }
    json(ex, 200, route[1](ex));
  },
};
