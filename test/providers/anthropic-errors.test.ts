import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  type ChatCompletionChunk,
  ContextWindowExceededError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RouterError,
  ServiceUnavailableError,
} from '../../src/index.js';
import { anthropicAdapter } from '../../src/providers/anthropic/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type { CallOptions } from '../../src/providers/shared/provider-adapter.js';
import type { MockBehavior } from '../../src/testing/index.js';
import { useMock } from '../helpers.js';
import { anthropicTarget } from './anthropic-helpers.js';

const KEY = 'sk-ant-secret-key-abcdef';
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/anthropic/${name}`, import.meta.url), 'utf8');
const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const target = () => anthropicTarget(`${mock.url}/e`, { apiKey: KEY });
const request = { model: 'claude', messages: [{ role: 'user' as const, content: 'hi' }] };
const chatError = (behavior: MockBehavior) => {
  mock.setBehavior('/e', behavior);
  return invokeJson(http, anthropicAdapter, anthropicAdapter.chat, request, target(), options).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as RouterError,
  );
};
async function streamError(behavior: MockBehavior, chunks: ChatCompletionChunk[] = []): Promise<RouterError> {
  mock.setBehavior('/e', behavior);
  try {
    const iterable = await invokeStream(
      http,
      anthropicAdapter,
      anthropicAdapter.chatStream,
      request,
      target(),
      options,
    );
    for await (const c of iterable) chunks.push(c);
  } catch (e) {
    return e as RouterError;
  }
  throw new Error('expected a failure');
}
const rawError = (status: number, name: string, headers: Record<string, string> = {}): MockBehavior => ({
  raw: { status, headers: { 'content-type': 'application/json', ...headers }, body: fixture(name) },
});

afterAll(async () => {
  await http.close();
});

describe('Anthropic errors from real bodies', () => {
  it('maps 529 overloaded_error to ServiceUnavailableError', async () => {
    const error = await chatError(rawError(529, 'error-overloaded.json'));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.message).toBe('anthropic/claude-sonnet-4-5 answered 529: Overloaded');
  });

  it('maps rate_limit_error to RateLimitError with retry-after', async () => {
    const error = await chatError(rawError(429, 'error-rate-limit.json', { 'retry-after': '7' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
    expect(error.message).toContain("This request would exceed your account's rate limit");
  });

  it('maps "prompt is too long" to ContextWindowExceededError', async () => {
    const error = await chatError(rawError(400, 'error-prompt-too-long.json'));
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect(error.message).toContain('prompt is too long: 208310 tokens > 200000 maximum');
  });

  it('maps not_found_error to NotFoundError', async () => {
    const error = await chatError(rawError(404, 'error-not-found.json'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('The requested resource could not be found.');
  });

  it('maps request_too_large (413) to BadRequestError carrying the upstream status', async () => {
    const error = await chatError(rawError(413, 'error-request-too-large.json'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.upstreamStatus).toBe(413);
  });

  it.each([
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [500, InternalServerError],
    [529, ServiceUnavailableError],
  ] as const)('maps the mock’s Anthropic error body for %d to its class', async (status, Class) => {
    expect(await chatError({ status })).toBeInstanceOf(Class);
  });

  it('keeps the text of a body that is not Anthropic JSON', async () => {
    const error = await chatError({ raw: { status: 502, body: '<html>Bad gateway</html>' } });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.message).toContain('<html>Bad gateway</html>');
  });

  it('never shows the api key in an error message', async () => {
    const error = await chatError({ status: 401, error: { message: `invalid x-api-key: ${KEY}` } });
    expect(error.message).not.toContain(KEY);
  });
});

describe('Anthropic stream failures', () => {
  it('throws the mapped class for an error event after HTTP 200 (not a success)', async () => {
    const chunks: ChatCompletionChunk[] = [];
    const error = await streamError(
      { content: 'one two three four five six', stream: { errorAfter: 5 } },
      chunks,
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(chunks.length).toBeGreaterThan(0);
  });

  it('maps an error event of another type by its type', async () => {
    const error = await streamError({
      stream: { errorAfter: 2 },
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('slow down');
  });

  it('throws APIConnectionError when the stream ends before its stop_reason', async () => {
    const error = await streamError({ stream: { endAfter: 3 } });
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toContain('stream ended before it finished (no message_delta with stop_reason)');
  });

  it('throws APIConnectionError when the connection is cut mid-stream', async () => {
    expect(await streamError({ stream: { cutAfter: 3 } })).toBeInstanceOf(APIConnectionError);
  });

  it('maps an error status before the stream opens', async () => {
    expect(await streamError({ status: 529 })).toBeInstanceOf(ServiceUnavailableError);
  });
});
