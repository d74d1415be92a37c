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
  NoDeploymentsAvailableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RouterError,
  ServiceUnavailableError,
  TimeoutError,
} from '../../src/errors/index.js';
import { BEDROCK_ERROR_CODES } from '../../src/providers/bedrock/index.js';

const ctx = { provider: 'openai', model: 'gpt-4o', modelId: 'dep-1', secrets: ['sk-secret-value-123456'] };

describe('errorFromResponse', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [408, TimeoutError],
    [422, BadRequestError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, ServiceUnavailableError],
    [503, ServiceUnavailableError],
    [529, ServiceUnavailableError],
  ])('maps HTTP %i to %o', (status, Class) => {
    const error = errorFromResponse({ status, message: 'boom' }, ctx);
    expect(error).toBeInstanceOf(Class);
  });

  it('maps context_length_exceeded to ContextWindowExceededError (a BadRequestError, status 400)', () => {
    const error = errorFromResponse(
      {
        status: 400,
        message: "This model's maximum context length is 8192 tokens",
        code: 'context_length_exceeded',
      },
      ctx,
    );
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
  });

  it('recognises a context window error by its message when there is no code', () => {
    const error = errorFromResponse(
      { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      ctx,
    );
    expect(error).toBeInstanceOf(ContextWindowExceededError);
  });

  it('maps content_filter to ContentPolicyViolationError', () => {
    const error = errorFromResponse({ status: 400, message: 'filtered', code: 'content_filter' }, ctx);
    expect(error).toBeInstanceOf(ContentPolicyViolationError);
    expect(error.status).toBe(400);
  });

  it('reads retry-after seconds into retryAfterMs', () => {
    const error = errorFromResponse(
      { status: 429, message: 'slow down', headers: { 'retry-after': '2' } },
      ctx,
    );
    expect(error.retryAfterMs).toBe(2000);
  });

  it('prefers retry-after-ms over retry-after', () => {
    const error = errorFromResponse(
      { status: 429, message: 'slow down', headers: { 'retry-after-ms': '150', 'retry-after': '2' } },
      ctx,
    );
    expect(error.retryAfterMs).toBe(150);
  });

  it('reads an HTTP-date retry-after', () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    const error = errorFromResponse({ status: 429, message: 'later', headers: { 'retry-after': at } }, ctx);
    expect(error.retryAfterMs).toBeGreaterThan(1000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3000);
  });

  it('carries provider, model, modelId and the upstream status', () => {
    const error = errorFromResponse({ status: 503, message: 'down' }, ctx);
    expect(error).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      modelId: 'dep-1',
      status: 503,
      upstreamStatus: 503,
    });
    expect(error.retryable).toBe(true);
  });

  it('never puts the api key, a Bearer token or a key query parameter in the message', () => {
    const error = errorFromResponse(
      {
        status: 401,
        message:
          'Incorrect API key provided: sk-secret-value-123456. Header was Authorization: Bearer abcdef123456 at https://x/y?key=AIzaSECRET',
      },
      ctx,
    );
    expect(error.message).not.toContain('sk-secret-value-123456');
    expect(error.message).not.toContain('abcdef123456');
    expect(error.message).not.toContain('AIzaSECRET');
    expect(error.message).toContain('Bearer ****');
  });

  it.each([
    ['InvalidSignatureException', 403, AuthenticationError],
    ['ExpiredTokenException', 403, AuthenticationError],
    ['ModelErrorException', 424, InternalServerError],
    ['ServiceQuotaExceededException', 400, RateLimitError],
  ])('maps the adapter-declared code %s (HTTP %i) by its meaning', (code, status, Class) => {
    const error = errorFromResponse({ status, message: 'x', code }, ctx, BEDROCK_ERROR_CODES);
    expect(error).toBeInstanceOf(Class);
  });

  it('maps an adapter-declared rate-limit code to RateLimitError whatever the status', () => {
    const error = errorFromResponse(
      { status: 400, message: 'quota', code: 'ThrottlingException' },
      ctx,
      BEDROCK_ERROR_CODES,
    );
    expect(error).toBeInstanceOf(RateLimitError);
  });

  it('leaves a code no adapter declared to the status', () => {
    const error = errorFromResponse({ status: 400, message: 'quota', code: 'ThrottlingException' }, ctx);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe('bad_request');
  });

  it('lets a generic invalid-request code give way to the status', () => {
    const error = errorFromResponse({ status: 401, message: 'no', code: 'invalid_request_error' }, ctx);
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  it('ignores a provider code that is an Object.prototype name', () => {
    const error = errorFromResponse({ status: 503, message: 'x', code: 'constructor' }, ctx, {});
    expect(error).toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('errorFromNetwork', () => {
  const withCode = (code: string, message = 'socket failure') => Object.assign(new Error(message), { code });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'])(
    'maps %s to APIConnectionError',
    (code) => {
      const error = errorFromNetwork(withCode(code), ctx);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error.status).toBe(500);
      expect(error.retryable).toBe(true);
    },
  );

  it.each(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])(
    'maps undici %s to TimeoutError',
    (code) => {
      const error = errorFromNetwork(withCode(code, 'timeout'), ctx);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.status).toBe(408);
    },
  );

  it('finds the code on a wrapped cause', () => {
    const error = errorFromNetwork(new Error('fetch failed', { cause: withCode('ECONNREFUSED') }), ctx);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('returns router errors unchanged', () => {
    const original = new RateLimitError('limited');
    expect(errorFromNetwork(original, ctx)).toBe(original);
  });
});

describe('error classes', () => {
  it('NoDeploymentsAvailableError is a RateLimitError with status 429', () => {
    const error = new NoDeploymentsAvailableError('none');
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.name).toBe('NoDeploymentsAvailableError');
  });

  it('takes the contract constructor options', () => {
    const error = new RateLimitError('limited', {
      provider: 'openai',
      model: 'm',
      modelId: 'id',
      retryAfterMs: 5,
      status: 429,
    });
    expect(error).toMatchObject({
      provider: 'openai',
      model: 'm',
      modelId: 'id',
      retryAfterMs: 5,
      status: 429,
    });
  });

  it('isInstance recognises subclasses and rejects other errors', () => {
    expect(BadRequestError.isInstance(new ContextWindowExceededError('x'))).toBe(true);
    expect(RateLimitError.isInstance(new BadRequestError('x'))).toBe(false);
    expect(RouterError.isInstance(new Error('x'))).toBe(false);
  });

  it('APIConnectionError has status 500', () => {
    expect(new APIConnectionError('x').status).toBe(500);
  });
});

describe('context window wording of every provider', () => {
  it.each([
    "This model's maximum context length is 8192 tokens (openai)",
    'prompt is too long: 210000 tokens > 200000 maximum (anthropic)',
    "This model's maximum prompt length is 131072 but the request contains 140000 tokens. (xai)",
    'Input is too long for requested model. (bedrock)',
    'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576). (gemini)',
  ])('%s', (message) => {
    expect(errorFromResponse({ status: 400, message }, { provider: 'p', model: 'm' })).toBeInstanceOf(
      ContextWindowExceededError,
    );
  });
});
