import { afterAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ContextWindowExceededError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from '../../src/index.js';
import { bedrockAdapter, readBedrockError } from '../../src/providers/bedrock/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { bedrockTarget, CLAUDE, type ErrorFixture, fixture } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const chat = (target: ProviderTarget = bedrockTarget(`${mock.url}/e`)) =>
  invokeJson(
    http,
    bedrockAdapter,
    bedrockAdapter.chat,
    { model: 'group', messages: [{ role: 'user', content: 'hi' }] },
    target,
    options,
  );
const failure = () => chat().catch((e: unknown) => e);

afterAll(async () => {
  await http.close();
});

describe('Bedrock error answers (recorded shapes)', () => {
  it.each([
    ['error-throttling.json', RateLimitError, 'Too many requests, please wait before trying again.'],
    [
      'error-validation-input-too-long.json',
      ContextWindowExceededError,
      'Input is too long for requested model.',
    ],
    ['error-validation.json', BadRequestError, 'temperature: range: 0..1'],
    ['error-access-denied.json', PermissionDeniedError, 'is not authorized to perform: bedrock:InvokeModel'],
    ['error-resource-not-found.json', NotFoundError, 'Could not resolve the foundation model'],
    ['error-model-not-ready.json', ServiceUnavailableError, 'Model is not ready for inference.'],
    ['error-service-unavailable.json', ServiceUnavailableError, 'Bedrock is unable to process your request.'],
    ['error-model-timeout.json', TimeoutError, 'Model has timed out'],
  ] as const)('maps %s to %s with the provider message', async (name, Class, text) => {
    const recorded = fixture<ErrorFixture>(name);
    mock.setBehavior('/e', {
      raw: { status: recorded.status, headers: recorded.headers, body: JSON.stringify(recorded.body) },
    });
    const error = await failure();
    expect(error).toBeInstanceOf(Class);
    expect((error as Error).message).toContain(text);
    expect((error as { modelId?: string }).modelId).toBe('bedrock-dep');
  });

  it('keeps a plain validation error a BadRequestError, not a context window error', async () => {
    const recorded = fixture<ErrorFixture>('error-validation.json');
    mock.setBehavior('/e', { raw: { ...recorded, body: JSON.stringify(recorded.body) } });
    const error = await failure();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(ContextWindowExceededError);
  });
});

describe('Bedrock error reading', () => {
  it('takes the exception type from x-amzn-errortype, before its first colon', () => {
    const failure = readBedrockError(429, '{"message":"Too many requests"}', {
      'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    });
    expect(failure).toMatchObject({ status: 429, message: 'Too many requests', code: 'ThrottlingException' });
  });

  it('reads a namespaced __type and a capitalised Message when there is no header', () => {
    const failure = readBedrockError(
      403,
      '{"__type":"com.amazon.coral.service#ExpiredTokenException","Message":"The security token included in the request is expired"}',
      {},
    );
    expect(failure).toMatchObject({
      code: 'ExpiredTokenException',
      message: expect.stringContaining('expired'),
    });
  });

  it('marks a ValidationException about too many tokens as the context window', () => {
    const failure = readBedrockError(
      400,
      '{"message":"prompt is too long: 210000 tokens > 200000 maximum"}',
      {
        'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      },
    );
    expect(failure.code).toBe('context_length_exceeded');
  });

  it('keeps the start of a body that is not JSON', () => {
    const failure = readBedrockError(502, '<html>Bad Gateway</html>', {});
    expect(failure).toEqual({
      status: 502,
      headers: {},
      message: '<html>Bad Gateway</html>',
      code: undefined,
    });
  });
});

describe('Bedrock mock error answers', () => {
  it('answers with the status, x-amzn-errortype and a { message } body', async () => {
    mock.setBehavior('/e', { status: 429 });
    const response = await fetch(`${mock.url}/e/model/${encodeURIComponent(CLAUDE)}/converse`, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-amzn-errortype')).toBe(
      'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    );
    expect(await response.json()).toEqual({ message: 'Too many requests, please wait before trying again.' });
  });

  it('maps the mock’s 429 to RateLimitError', async () => {
    mock.setBehavior('/e', { status: 429 });
    await expect(chat()).rejects.toBeInstanceOf(RateLimitError);
  });

  it('maps a ValidationException "Input is too long" to ContextWindowExceededError', async () => {
    mock.setBehavior('/e', { status: 400, error: { message: 'Input is too long for requested model.' } });
    await expect(chat()).rejects.toBeInstanceOf(ContextWindowExceededError);
  });

  it('never shows the Bedrock API key in an error message', async () => {
    const key = 'ABSKQmVkcm9ja0FQSUtleS1zZWNyZXQ=';
    mock.setBehavior('/e', { status: 403, error: { message: `Invalid API key ${key}` } });
    const error = await chat(bedrockTarget(`${mock.url}/e`, CLAUDE, { api_key: key }, key)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).not.toContain(key);
  });
});
