import {
  AuthenticationError,
  BadRequestError,
  NoDeploymentsAvailableError,
  RateLimitError,
  RouterError,
} from '@svc/router';
import { describe, expect, it } from 'vitest';
import { anthropicErrorBody, anthropicErrorEvent } from '../../src/anthropic/anthropic-error.js';
import { ProxyError } from '../../src/http/proxy-error.js';

describe('anthropicErrorBody', () => {
  it('gives a router error its Anthropic type, message and code', () => {
    expect(anthropicErrorBody(new RateLimitError('slow down'))).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down', code: 'rate_limit' },
    });
  });

  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [503, 'overloaded_error'],
    [529, 'overloaded_error'],
  ])('answers status %i with type %s', (status, type) => {
    expect(anthropicErrorBody(new RouterError('x', { status })).error.type).toBe(type);
  });

  it('keeps a subclass code', () => {
    expect(anthropicErrorBody(new NoDeploymentsAvailableError('none')).error.code).toBe(
      'no_deployments_available',
    );
    expect(anthropicErrorBody(new BadRequestError('bad')).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'bad_request',
    });
    expect(anthropicErrorBody(new AuthenticationError('no')).error.type).toBe('authentication_error');
  });

  it("reads the proxy's own errors by their status and code", () => {
    const proxyError = new ProxyError(400, 'budget_exceeded', 'Budget exceeded.');
    expect(anthropicErrorBody(proxyError).error).toEqual({
      type: 'invalid_request_error',
      message: 'Budget exceeded.',
      code: 'budget_exceeded',
    });
  });

  it("answers fastify's body errors by their statusCode", () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    expect(anthropicErrorBody(tooLarge).error).toMatchObject({
      type: 'request_too_large',
      code: 'request_too_large',
    });
  });

  it('hides the message of an unexpected error behind a 500 api_error', () => {
    const body = anthropicErrorBody(new Error('postgres://u:secret@h/db refused'));
    expect(body.error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('answers a thrown non-error value as a 500 api_error', () => {
    expect(anthropicErrorBody('boom').error.type).toBe('api_error');
  });
});

describe('anthropicErrorEvent', () => {
  it("is the stream's error event with the error body as its data", () => {
    expect(anthropicErrorEvent(new NoDeploymentsAvailableError('none left'))).toEqual({
      event: 'error',
      data: {
        type: 'error',
        error: { type: 'rate_limit_error', message: 'none left', code: 'no_deployments_available' },
      },
    });
  });
});
