import { afterAll, describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/errors/map-error.js';
import {
  AuthenticationError,
  BadRequestError,
  ContextWindowExceededError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from '../../src/index.js';
import { geminiAdapter, readGoogleError } from '../../src/providers/gemini/index.js';
import { useMock } from '../helpers.js';
import { API_KEY, chat, closeHttp, fixture, geminiTarget, stream } from './gemini-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const replayError = (status: number, name: string) =>
  mock.setBehavior('/g', {
    raw: { status, headers: { 'content-type': 'application/json' }, body: fixture('gemini', name) },
  });

describe('Gemini error bodies', () => {
  it('maps RESOURCE_EXHAUSTED to RateLimitError, with RetryInfo.retryDelay as retryAfterMs', async () => {
    replayError(429, 'error-429-resource-exhausted.json');
    const error = await chat(geminiTarget(mock)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(34_000);
    expect((error as Error).message).toContain('You exceeded your current quota');
  });

  it('maps RESOURCE_EXHAUSTED to RateLimitError whatever the HTTP status', () => {
    const failure = readGoogleError(
      400,
      JSON.stringify({ error: { code: 400, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }),
    );
    const error = errorFromResponse(failure, { provider: 'gemini', model: 'm' }, geminiAdapter.errorCodes);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.code).toBe('rate_limit');
  });

  it('maps INVALID_ARGUMENT with token-limit text to ContextWindowExceededError', async () => {
    replayError(400, 'error-400-token-limit.json');
    await expect(chat(geminiTarget(mock))).rejects.toBeInstanceOf(ContextWindowExceededError);
  });

  it('maps other INVALID_ARGUMENT errors to BadRequestError with Google’s message', async () => {
    replayError(400, 'error-400-invalid-argument.json');
    const error = await chat(geminiTarget(mock)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toContain('only one of thinking budget and thinking level');
  });

  it('maps an API_KEY_INVALID 400 to AuthenticationError', async () => {
    replayError(400, 'error-400-api-key-invalid.json');
    await expect(chat(geminiTarget(mock))).rejects.toBeInstanceOf(AuthenticationError);
  });

  it.each([
    [401, 'error-401-unauthenticated.json', AuthenticationError],
    [403, 'error-403-permission-denied.json', PermissionDeniedError],
    [404, 'error-404-not-found.json', NotFoundError],
    [500, 'error-500-internal.json', InternalServerError],
    [503, 'error-503-unavailable.json', ServiceUnavailableError],
    [504, 'error-504-deadline-exceeded.json', TimeoutError],
  ] as const)('maps HTTP %i (%s) to its class', async (status, name, Class) => {
    replayError(status, name);
    await expect(chat(geminiTarget(mock))).rejects.toBeInstanceOf(Class);
  });

  it('maps an error before a stream opens the same way', async () => {
    replayError(429, 'error-429-resource-exhausted.json');
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(RateLimitError);
  });

  it('never puts the API key in an error message', async () => {
    mock.setBehavior('/g', { status: 400, error: { message: `API key ${API_KEY} not valid` } });
    const error = (await chat(geminiTarget(mock)).catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(API_KEY);
  });
});

describe('Gemini mock error bodies', () => {
  it.each([
    [429, RateLimitError, 'RESOURCE_EXHAUSTED'],
    [503, ServiceUnavailableError, 'UNAVAILABLE'],
    [403, PermissionDeniedError, 'PERMISSION_DENIED'],
  ] as const)('answers %i with Google’s error body', async (status, Class, code) => {
    mock.setBehavior('/g', { status });
    await expect(chat(geminiTarget(mock))).rejects.toBeInstanceOf(Class);
    mock.reset();
    mock.setBehavior('/g', { status });
    const res = await fetch(`${mock.url}/g/v1beta/models/m:generateContent`, { method: 'POST', body: '{}' });
    expect(await res.json()).toEqual({ error: { code: status, message: expect.any(String), status: code } });
  });
});
