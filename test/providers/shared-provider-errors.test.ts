import { describe, expect, it } from 'vitest';
import { APIConnectionError, BadRequestError, InternalServerError } from '../../src/index.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import {
  badRequest,
  errorOptions,
  streamEndedEarly,
  streamedNonJson,
} from '../../src/providers/shared/provider-errors.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';

const target: ProviderTarget = {
  ...bedrockTarget(undefined),
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  modelId: 'dep-1',
};

describe('errorOptions', () => {
  it('names the provider, model and deployment, and nothing else', () => {
    expect(errorOptions(target)).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      modelId: 'dep-1',
    });
  });
});

describe('badRequest', () => {
  it('returns a BadRequestError whose message starts with provider/model', () => {
    const error = badRequest(target, 'a `tool` message needs `tool_call_id`');
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('anthropic/claude-sonnet-4-5: a `tool` message needs `tool_call_id`');
  });

  it('carries the deployment on the error', () => {
    expect(badRequest(target, 'x')).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      modelId: 'dep-1',
    });
  });
});

describe('streamEndedEarly', () => {
  it('returns a retryable APIConnectionError naming the missing terminal event', () => {
    const error = streamEndedEarly(target, 'message_stop');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      'anthropic/claude-sonnet-4-5 stream ended before its terminal event (message_stop)',
    );
  });
});

describe('streamedNonJson', () => {
  it('returns an InternalServerError naming what was streamed', () => {
    const error = streamedNonJson(target, 'a frame');
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toBe('anthropic/claude-sonnet-4-5 streamed a frame that is not JSON');
  });

  it('keeps the parse error as its cause', () => {
    const cause = new SyntaxError('Unexpected token');
    expect(streamedNonJson(target, 'an event', cause).cause).toBe(cause);
  });
});
