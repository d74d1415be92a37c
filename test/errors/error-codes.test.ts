import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ContentPolicyViolationError,
  ContextWindowExceededError,
  errorFromNetwork,
  errorFromResponse,
  InternalServerError,
  isRouterErrorCode,
  NoDeploymentsAvailableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ROUTER_ERROR_CODES,
  RouterError,
  ServiceUnavailableError,
  statusForCode,
  TimeoutError,
} from '../../src/errors/index.js';
import { MAX_UPSTREAM_BODY_CHARS } from '../../src/errors/upstream-body.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { useMock } from '../helpers.js';
import { chat, targetOn } from '../providers/openai-family-helpers.js';

const SECRET = 'sk-secret-value-123456';
const ctx = { provider: 'openai', model: 'gpt-4o', modelId: 'dep-1', secrets: [SECRET] };

describe('error codes', () => {
  it.each([
    [BadRequestError, 'bad_request'],
    [ContextWindowExceededError, 'context_window_exceeded'],
    [ContentPolicyViolationError, 'content_policy_violation'],
    [AuthenticationError, 'authentication'],
    [PermissionDeniedError, 'permission_denied'],
    [NotFoundError, 'not_found'],
    [TimeoutError, 'timeout'],
    [RateLimitError, 'rate_limit'],
    [NoDeploymentsAvailableError, 'no_deployments_available'],
    [InternalServerError, 'internal_server'],
    [ServiceUnavailableError, 'service_unavailable'],
    [APIConnectionError, 'api_connection'],
    [RouterError, 'api_error'],
  ] as const)('%o has the code %s', (Class, code) => {
    const error = new Class('x');
    expect(error.code).toBe(code);
    expect(ROUTER_ERROR_CODES).toContain(code);
  });

  it('takes a finer code than its class gives', () => {
    expect(new RateLimitError('x', { code: 'insufficient_quota' }).code).toBe('insufficient_quota');
  });

  it('lists every code once, and knows them', () => {
    expect(new Set(ROUTER_ERROR_CODES).size).toBe(ROUTER_ERROR_CODES.length);
    expect(isRouterErrorCode('rate_limit')).toBe(true);
    expect(isRouterErrorCode('RESOURCE_EXHAUSTED')).toBe(false);
    expect(isRouterErrorCode('toString')).toBe(false);
  });

  it('appears in JSON.stringify(error)', () => {
    expect(JSON.parse(JSON.stringify(new NotFoundError('x')))).toMatchObject({ code: 'not_found' });
  });
});

describe('errorFromResponse codes', () => {
  it.each([
    [400, 'bad_request'],
    [401, 'authentication'],
    [403, 'permission_denied'],
    [404, 'not_found'],
    [408, 'timeout'],
    [413, 'request_too_large'],
    [422, 'bad_request'],
    [429, 'rate_limit'],
    [500, 'internal_server'],
    [502, 'service_unavailable'],
    [529, 'service_unavailable'],
  ])('gives HTTP %i the code %s', (status, code) => {
    expect(errorFromResponse({ status, message: 'boom' }, ctx).code).toBe(code);
  });

  it('keeps 413 a BadRequestError with the code request_too_large', () => {
    const error = errorFromResponse({ status: 413, message: 'too big' }, ctx);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, upstreamStatus: 413, code: 'request_too_large' });
  });

  it('tells an exhausted quota from a rate limit: insufficient_quota, still a RateLimitError', () => {
    const error = errorFromResponse({ status: 429, message: 'billing', code: 'insufficient_quota' }, ctx);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.code).toBe('insufficient_quota');
  });

  it('gives a context window error found in the message its code', () => {
    const error = errorFromResponse({ status: 400, message: 'prompt is too long: 300000 tokens' }, ctx);
    expect(error.code).toBe('context_window_exceeded');
  });

  it('gives a content policy refusal found by its code its code', () => {
    const error = errorFromResponse({ status: 400, message: 'no', code: 'content_filter' }, ctx);
    expect(error.code).toBe('content_policy_violation');
  });

  it('maps a provider code through the adapter-declared table', () => {
    const failure = { status: 400, message: 'slow down', code: 'RESOURCE_EXHAUSTED' };
    const error = errorFromResponse(failure, { ...ctx, provider: 'gemini' }, geminiAdapter.errorCodes);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'rate_limit', upstreamStatus: 400, status: 429 });
  });

  it('gives the status an adapter-declared code stands for, for errors inside a stream', () => {
    expect(statusForCode('RESOURCE_EXHAUSTED', geminiAdapter.errorCodes)).toBe(429);
    expect(statusForCode('RESOURCE_EXHAUSTED')).toBeUndefined();
    expect(statusForCode('context_length_exceeded')).toBe(400);
    expect(statusForCode('constructor')).toBeUndefined();
  });

  it('has no upstream body or status for a failure without an answer', () => {
    const error = errorFromNetwork(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), ctx);
    expect(error).toMatchObject({ code: 'api_connection', upstreamStatus: undefined });
    expect(error.upstreamBody).toBeUndefined();
  });
});

describe('upstreamBody', () => {
  const quotaBody = (padding: number) =>
    JSON.stringify({
      error: {
        message: `Rate limit reached for key ${SECRET}`,
        type: 'requests',
        code: 'rate_limit_exceeded',
        detail: 'x'.repeat(padding),
      },
    });

  it('keeps the status, the code and the body of a mapped provider error', () => {
    const body = quotaBody(10);
    const error = errorFromResponse(
      { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', body },
      ctx,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'rate_limit', upstreamStatus: 429 });
    expect(error.upstreamBody).toBe(body.replace(SECRET, '****'));
  });

  it('removes the deployment secrets and key-shaped strings from the body', () => {
    const body = `{"error":"bad key ${SECRET}, header Authorization: Bearer abcdef123456"}`;
    const error = errorFromResponse({ status: 401, message: 'bad key', body }, ctx);
    expect(error.upstreamBody).not.toContain(SECRET);
    expect(error.upstreamBody).not.toContain('abcdef123456');
    expect(error.upstreamBody).toContain('Bearer ****');
  });

  it('keeps at most 2 KiB of a long body, saying it was cut and how long it was', () => {
    const body = quotaBody(10_000);
    const error = errorFromResponse({ status: 429, message: 'Rate limit reached', body }, ctx);
    const kept = error.upstreamBody ?? '';
    const redactedLength = body.replace(SECRET, '****').length;
    expect(kept.startsWith(body.replace(SECRET, '****').slice(0, MAX_UPSTREAM_BODY_CHARS))).toBe(true);
    expect(kept.length).toBeLessThan(MAX_UPSTREAM_BODY_CHARS + 60);
    expect(kept).toMatch(new RegExp(`\\[truncated: ${redactedLength} characters in all\\]$`));
    expect(kept).not.toContain(SECRET);
  });

  it('redacts a secret that straddles the 2 KiB cut', () => {
    const body = `${'x'.repeat(MAX_UPSTREAM_BODY_CHARS - 5)}${SECRET}${'y'.repeat(100)}`;
    const kept = errorFromResponse({ status: 500, message: 'x', body }, ctx).upstreamBody ?? '';
    expect(kept).not.toContain(SECRET.slice(0, 5));
  });

  it('stays out of JSON.stringify and util.inspect, and is still readable', () => {
    const body = `{"error":"${'detail '.repeat(50)}"}`;
    const error = errorFromResponse({ status: 500, message: 'failed', body }, ctx);
    expect(error.upstreamBody).toBe(body);
    expect(Object.keys(error)).not.toContain('upstreamBody');
    expect(JSON.stringify(error)).not.toContain('detail');
    expect(inspect(error)).not.toContain('detail detail');
  });

  it('is undefined for an empty body', () => {
    expect(errorFromResponse({ status: 500, message: 'x', body: '' }, ctx).upstreamBody).toBeUndefined();
  });
});

describe('upstreamBody of a provider answer', () => {
  const mock = useMock();

  it('is the error body the provider sent, with the deployment key removed', async () => {
    const body = JSON.stringify({
      error: { message: 'Incorrect API key provided: sk-test-key-123456', code: 'invalid_api_key' },
    });
    mock.setBehavior('/keyed', {
      raw: { status: 401, headers: { 'content-type': 'application/json' }, body },
    });
    const target = targetOn(mock, openaiAdapter, 'gpt-4o', '/keyed/v1');
    const error = (await chat(openaiAdapter, target).catch((e: unknown) => e)) as RouterError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'authentication', upstreamStatus: 401 });
    expect(error.upstreamBody).toBe(body.replace('sk-test-key-123456', '****'));
  });
});
