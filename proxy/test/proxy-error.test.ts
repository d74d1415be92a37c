import { NoDeploymentsAvailableError, RateLimitError } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { errorReply, ProxyError } from '../src/http/proxy-error.js';

describe('errorReply', () => {
  it('keeps a library error status, type and code', () => {
    const reply = errorReply(new RateLimitError('slow down', { retryAfterMs: 2_500 }));
    expect(reply).toEqual({
      status: 429,
      body: { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit' } },
      headers: { 'retry-after': '3' },
    });
  });

  it('answers NoDeploymentsAvailableError with 429 no_deployments_available', () => {
    const reply = errorReply(new NoDeploymentsAvailableError('No deployments available for selected model'));
    expect(reply.status).toBe(429);
    expect(reply.body.error.code).toBe('no_deployments_available');
  });

  it('sends a proxy error as decided', () => {
    const reply = errorReply(new ProxyError(403, 'model_not_allowed', 'no'));
    expect(reply.body).toEqual({
      error: { message: 'no', type: 'permission_error', code: 'model_not_allowed' },
    });
  });

  it('hides the message of an unexpected error behind a 500', () => {
    const reply = errorReply(new Error('connection string postgres://u:secret@h/db refused'));
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('secret');
  });
});
