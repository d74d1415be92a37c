import { afterAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type ChatMessage,
  ContentPolicyViolationError,
  NotFoundError,
  RateLimitError,
} from '../../src/index.js';
import { azureAdapter } from '../../src/providers/azure/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  http,
  jsonRaw,
  OPTIONS,
  sentMessages,
  stream,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const KEY = 'azure-key-0123456789';
const target = (params: Record<string, unknown> = {}) =>
  targetOn(mock, azureAdapter, 'my-gpt4o', '/az', { api_key: KEY, api_version: '2024-10-21', ...params });

afterAll(async () => {
  await closeHttp();
});

describe('Azure errors', () => {
  it('maps a prompt refused by the content filter to ContentPolicyViolationError, naming the category', async () => {
    mock.setBehavior('/az', jsonRaw('azure', 'error-400-prompt-filtered.json', 400));
    const error = await chat(azureAdapter, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentPolicyViolationError);
    expect((error as Error).message).toContain('filtered: self_harm (medium)');
  });

  it('maps the mock’s Azure prompt filter the same way', async () => {
    mock.setBehavior('/az', { openaiVariant: { contentFilter: 'prompt' } });
    await expect(chat(azureAdapter, target())).rejects.toBeInstanceOf(ContentPolicyViolationError);
    mock.setBehavior('/az', { status: 400, openaiVariant: { contentFilter: 'prompt' } });
    await expect(stream(azureAdapter, target())).rejects.toBeInstanceOf(ContentPolicyViolationError);
  });

  it('maps DeploymentNotFound to NotFoundError', async () => {
    mock.setBehavior('/az', jsonRaw('azure', 'error-404-deployment-not-found.json', 404));
    await expect(chat(azureAdapter, target())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('maps 429 with retry-after to RateLimitError with retryAfterMs', async () => {
    mock.setBehavior('/az', jsonRaw('azure', 'error-429-rate-limit.json', 429, { 'retry-after': '6' }));
    const error = await chat(azureAdapter, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(6000);
  });

  it('keeps the api-key out of error messages', async () => {
    mock.setBehavior('/az', { status: 401, error: { message: `Access denied due to invalid key ${KEY}` } });
    const error = (await chat(azureAdapter, target()).catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(KEY);
  });
});

describe('Azure reasoning', () => {
  const history: ChatMessage[] = [
    ...USER,
    { role: 'assistant', content: 'Hello', reasoning_content: 'Greet back.' },
    { role: 'user', content: 'Again' },
  ];

  it('refuses reasoning_content in the history without drop_params, sending nothing', async () => {
    await expect(chat(azureAdapter, target(), { messages: history })).rejects.toBeInstanceOf(BadRequestError);
    expect(mock.requests).toHaveLength(0);
  });

  it('removes reasoning_content from the history with drop_params', async () => {
    await chat(azureAdapter, target(), { messages: history }, { ...OPTIONS, dropParams: true });
    expect(sentMessages(mock, 0)?.[1]).toEqual({
      role: 'assistant',
      content: 'Hello',
    });
  });

  it('passes reasoning_effort through, and drops it for a base_model known not to reason with drop_params', async () => {
    await chat(azureAdapter, target(), { reasoning_effort: 'high' });
    await chat(
      azureAdapter,
      target({ base_model: 'gpt-4o' }),
      { reasoning_effort: 'high' },
      { ...OPTIONS, dropParams: true },
    );
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'high' });
    expect(mock.requests[1]?.body).not.toHaveProperty('reasoning_effort');
  });
});

describe('Azure embeddings, text completions and image generation', () => {
  it('posts embeddings to /openai/deployments/{deployment}/embeddings?api-version=', async () => {
    const res = await invokeJson(
      http,
      azureAdapter,
      azureAdapter.embedding!,
      { model: 'g', input: ['a', 'b'] },
      target(),
      OPTIONS,
    );
    expect(mock.requests[0]?.path).toBe('/az/openai/deployments/my-gpt4o/embeddings?api-version=2024-10-21');
    expect(mock.requests[0]?.headers['api-key']).toBe(KEY);
    expect(res.data).toHaveLength(2);
  });

  it('posts text completions to /openai/deployments/{deployment}/completions?api-version=', async () => {
    const res = await invokeJson(
      http,
      azureAdapter,
      azureAdapter.textCompletion!,
      { model: 'g', prompt: 'Say hi' },
      target(),
      OPTIONS,
    );
    expect(mock.requests[0]?.path).toBe('/az/openai/deployments/my-gpt4o/completions?api-version=2024-10-21');
    expect(res.object).toBe('text_completion');
  });

  it('posts image generation to /openai/deployments/{deployment}/images/generations?api-version=', async () => {
    const res = await invokeJson(
      http,
      azureAdapter,
      azureAdapter.imageGeneration!,
      { model: 'g', prompt: 'a cat', n: 1 },
      target(),
      OPTIONS,
    );
    expect(mock.requests[0]?.path).toBe(
      '/az/openai/deployments/my-gpt4o/images/generations?api-version=2024-10-21',
    );
    expect(res.data).toHaveLength(1);
  });
});
