import { afterAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type ChatCompletion,
  PermissionDeniedError,
  RateLimitError,
  Router,
} from '../../src/index.js';
import { vertexAdapter, vertexApiBase } from '../../src/providers/vertex_ai/index.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, fixture, stream, streamedText } from './gemini-helpers.js';
import { vertexTarget } from './vertex-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const GEMINI_PATH =
  '/vx/v1/projects/my-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash';

describe('Vertex AI (Gemini) requests', () => {
  it('posts to .../projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent with Bearer', async () => {
    mock.setBehavior('/vx', { content: 'Paris.' });
    const res = await chat(vertexTarget(mock), {}, vertexAdapter);
    expect(mock.requests[0]?.path).toBe(`${GEMINI_PATH}:generateContent`);
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ya29.vertex-static-token');
    expect(mock.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
    expect(mock.requests[0]?.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(res.choices[0]?.message.content).toBe('Paris.');
  });

  it('streams from :streamGenerateContent?alt=sse', async () => {
    mock.setBehavior('/vx', { content: 'a b c d' });
    const chunks = await stream(vertexTarget(mock), {}, vertexAdapter);
    expect(mock.requests[0]?.path).toBe(`${GEMINI_PATH}:streamGenerateContent?alt=sse`);
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ya29.vertex-static-token');
    expect(streamedText(chunks)).toBe('a b c d');
  });

  it('derives the default host from the location (regional, or global)', () => {
    const base = { ...vertexTarget(mock), apiBase: undefined };
    expect(vertexApiBase(base)).toBe('https://europe-west4-aiplatform.googleapis.com');
    expect(vertexApiBase({ ...base, params: { ...base.params, vertex_location: 'global' } })).toBe(
      'https://aiplatform.googleapis.com',
    );
  });

  it('reads VERTEXAI_PROJECT and VERTEXAI_LOCATION when svc_params has none, location defaulting to us-central1', async () => {
    const target = vertexTarget(mock, 'gemini-2.5-flash', {
      vertex_project: undefined,
      vertex_location: undefined,
    });
    process.env.VERTEXAI_PROJECT = 'env-project';
    try {
      await chat(target, {}, vertexAdapter);
      process.env.VERTEXAI_LOCATION = 'asia-northeast1';
      await chat(target, {}, vertexAdapter);
    } finally {
      delete process.env.VERTEXAI_PROJECT;
      delete process.env.VERTEXAI_LOCATION;
    }
    expect(mock.requests.map((r) => r.path.split('/publishers')[0])).toEqual([
      '/vx/v1/projects/env-project/locations/us-central1',
      '/vx/v1/projects/env-project/locations/asia-northeast1',
    ]);
  });

  it('fails with a BadRequestError naming vertex_project when no project is known', async () => {
    const target = vertexTarget(mock, 'gemini-2.5-flash', { vertex_project: undefined });
    const error = await chat(target, {}, vertexAdapter).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('vertex_project');
    expect(mock.requests).toHaveLength(0);
  });

  it('replays a Vertex response: createTime -> created, responseId -> id, modelVersion -> model', async () => {
    mock.setBehavior('/vx', { raw: { body: fixture('vertex_ai', 'generate-content.json') } });
    const res = await chat(vertexTarget(mock), {}, vertexAdapter);
    expect(res).toMatchObject({
      id: 'tTCwacuEBMvnitYP06qsgQY',
      created: Math.floor(Date.parse('2025-03-10T14:54:45.066123Z') / 1000),
      model: 'gemini-2.0-flash-001',
      choices: [{ finish_reason: 'stop', message: { content: 'The capital of France is Paris.' } }],
      usage: { prompt_tokens: 7, completion_tokens: 7, total_tokens: 14 },
    });
  });

  it('replays a Vertex stream whose early fragments carry no token counts', async () => {
    mock.setBehavior('/vx', { raw: { body: fixture('vertex_ai', 'stream-generate-content.sse') } });
    const chunks = await stream(vertexTarget(mock), {}, vertexAdapter);
    expect(streamedText(chunks)).toBe('The capital of France is Paris.');
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 33,
      total_tokens: 40,
      completion_tokens_details: { reasoning_tokens: 26 },
    });
  });
});

describe('Vertex AI errors', () => {
  it('maps a Google-shaped PERMISSION_DENIED to PermissionDeniedError', async () => {
    mock.setBehavior('/vx', {
      raw: { status: 403, body: fixture('vertex_ai', 'error-403-permission-denied.json') },
    });
    const error = await chat(vertexTarget(mock), {}, vertexAdapter).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain("Permission 'aiplatform.endpoints.predict' denied");
  });

  it('maps RESOURCE_EXHAUSTED to RateLimitError', async () => {
    mock.setBehavior('/vx', {
      raw: { status: 429, body: fixture('vertex_ai', 'error-429-resource-exhausted.json') },
    });
    await expect(chat(vertexTarget(mock), {}, vertexAdapter)).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('Vertex AI through the Router', () => {
  it.each(['vertex_ai', 'vertexai'])(
    'routes a %s/ deployment with project, location and api_key',
    async (prefix) => {
      mock.setBehavior('/vr', { content: 'ok' });
      const router = new Router([
        {
          model_name: 'v',
          svc_params: {
            model: `${prefix}/gemini-2.5-pro`,
            api_base: `${mock.url}/vr`,
            api_key: 'ya29.router-token',
            vertex_project: 'proj-1',
            vertex_location: 'us-east5',
          },
        },
      ]);
      const res = (await router.acompletion({
        model: 'v',
        messages: [{ role: 'user', content: 'hi' }],
      })) as ChatCompletion & {
        _hidden_params: { custom_llm_provider: string };
      };
      await router.close();
      expect(mock.requests[0]?.path).toBe(
        '/vr/v1/projects/proj-1/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
      );
      expect(mock.requests[0]?.headers.authorization).toBe('Bearer ya29.router-token');
      expect(res._hidden_params.custom_llm_provider).toBe('vertex_ai');
    },
  );
});
