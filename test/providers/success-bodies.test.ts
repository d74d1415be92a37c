import { afterAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
  type RouterError,
} from '../../src/index.js';
import { azureAdapter } from '../../src/providers/azure/index.js';
import { bedrockAdapter } from '../../src/providers/bedrock/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type {
  JsonOperation,
  ProviderAdapter,
  ProviderTarget,
} from '../../src/providers/shared/provider-adapter.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';
import { geminiTarget } from './gemini-helpers.js';
import { closeHttp, http, OPTIONS, targetOn } from './openai-family-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

/** A 200 answer with this JSON body. */
const ok = (body: unknown) => ({
  raw: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
});

const RATE_LIMITED = {
  error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
};

type Kind = 'embedding' | 'textCompletion' | 'imageGeneration';
const REQUESTS: Record<Kind, Record<string, unknown>> = {
  embedding: { model: 'g', input: ['a', 'b'] },
  textCompletion: { model: 'g', prompt: 'say hi' },
  imageGeneration: { model: 'g', prompt: 'a cat' },
};

function call(adapter: ProviderAdapter, kind: Kind, target: ProviderTarget): Promise<unknown> {
  const operation = adapter[kind] as JsonOperation<unknown, unknown>;
  return invokeJson(http, adapter, operation, REQUESTS[kind], target, OPTIONS);
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as RouterError,
  );

const openai = () => targetOn(mock, openaiAdapter, 'gpt-4o', '/o/v1');
const KINDS: Kind[] = ['embedding', 'textCompletion', 'imageGeneration'];

describe('OpenAI-compatible: an error body in a 200', () => {
  it.each(KINDS)('%s: fails with the class its code names (rate limit)', async (kind) => {
    mock.setBehavior('/o', ok(RATE_LIMITED));
    const error = await failure(call(openaiAdapter, kind, openai()));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toBe(
      'openai/gpt-4o answered 429: Rate limit reached for requests (an error body in a 2xx answer)',
    );
  });

  it('fails a bad request error body as BadRequestError, not retried', async () => {
    mock.setBehavior('/o', ok({ error: { message: 'Invalid input', type: 'invalid_request_error' } }));
    const error = await failure(call(openaiAdapter, 'embedding', openai()));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.retryable).toBe(false);
  });

  it('reads an HTTP status given as a number in error.code (OpenRouter)', async () => {
    mock.setBehavior('/o', ok({ error: { code: 401, message: 'No auth credentials found' } }));
    expect(await failure(call(openaiAdapter, 'embedding', openai()))).toBeInstanceOf(AuthenticationError);
  });

  it('fails an error body with an unknown code as a retryable InternalServerError', async () => {
    mock.setBehavior('/o', ok({ error: 'upstream went away' }));
    const error = await failure(call(openaiAdapter, 'textCompletion', openai()));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error?.retryable).toBe(true);
    expect(error?.message).toContain('upstream went away');
  });

  it('goes through the provider’s own readError (Azure)', async () => {
    const target = targetOn(mock, azureAdapter, 'my-embed', '/az', {
      api_key: 'azure-key-0123',
      api_version: '2024-10-21',
    });
    mock.setBehavior('/az', ok(RATE_LIMITED));
    expect(await failure(call(azureAdapter, 'embedding', target))).toBeInstanceOf(RateLimitError);
  });
});

describe('OpenAI-compatible: a 200 without its data', () => {
  it.each([
    ['embedding', {}, 'answered without `data`'],
    ['embedding', { object: 'list', data: [] }, 'answered an empty `data`'],
    ['textCompletion', { id: 'x', object: 'text_completion' }, 'answered without `choices`'],
    ['imageGeneration', { created: 1 }, 'answered without `data`'],
  ] as const)(
    '%s %j: fails with a retryable InternalServerError naming what is missing',
    async (kind, body, said) => {
      mock.setBehavior('/o', ok(body));
      const error = await failure(call(openaiAdapter, kind, openai()));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error?.retryable).toBe(true);
      expect(error?.message).toBe(`openai/gpt-4o ${said}`);
    },
  );

  it('still answers a complete body', async () => {
    const answer = (await call(openaiAdapter, 'embedding', openai())) as { data: unknown[] };
    expect(answer.data).toHaveLength(2);
  });
});

describe('Gemini embeddings', () => {
  it('fail a 200 Google error body with its class', async () => {
    mock.setBehavior(
      '/g',
      ok({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }),
    );
    const error = await failure(
      call(geminiAdapter, 'embedding', geminiTarget(mock, 'g', {}, 'text-embedding-004')),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toContain('Quota exceeded');
  });

  it('fail a 200 with no embeddings as a retryable InternalServerError', async () => {
    mock.setBehavior('/g', ok({ embeddings: [] }));
    const error = await failure(
      call(geminiAdapter, 'embedding', geminiTarget(mock, 'g', {}, 'text-embedding-004')),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error?.message).toBe('gemini/text-embedding-004 answered an empty `embeddings`');
  });
});

describe('Gemini chat', () => {
  it('fails a 200 Google error body with its class', async () => {
    mock.setBehavior(
      '/g',
      ok({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }),
    );
    const error = await failure(
      invokeJson(
        http,
        geminiAdapter,
        geminiAdapter.chat,
        { model: 'g', messages: [{ role: 'user', content: 'hi' }] },
        geminiTarget(mock, 'g'),
        OPTIONS,
      ),
    );
    expect(error).toBeInstanceOf(RateLimitError);
  });
});

describe('Bedrock embeddings', () => {
  const titan = () => bedrockTarget(`${mock.url}/b`, 'amazon.titan-embed-text-v2:0');

  it('fail a 200 AWS error body with its class', async () => {
    mock.setBehavior('/b', ok({ __type: 'ThrottlingException', message: 'Too many requests' }));
    const error = await failure(
      invokeJson(
        http,
        bedrockAdapter,
        bedrockAdapter.embedding!,
        { model: 'g', input: 'a' },
        titan(),
        OPTIONS,
      ),
    );
    expect(error).toBeInstanceOf(RateLimitError);
  });

  it('fail a 200 with no embedding as a retryable InternalServerError', async () => {
    mock.setBehavior('/b', ok({ inputTextTokenCount: 3 }));
    const error = await failure(
      invokeJson(
        http,
        bedrockAdapter,
        bedrockAdapter.embedding!,
        { model: 'g', input: 'a' },
        titan(),
        OPTIONS,
      ),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error?.retryable).toBe(true);
  });
});
