import { describe, expect, it } from 'vitest';
import { APIConnectionError, BadRequestError } from '../../src/index.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import {
  badRequest,
  errorOptions,
  responseTooLarge,
  streamEndedEarly,
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
  it('returns a retryable APIConnectionError naming what never came', () => {
    const error = streamEndedEarly(target, 'no message_delta with stop_reason');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      'anthropic/claude-sonnet-4-5 stream ended before it finished (no message_delta with stop_reason)',
    );
  });
});

describe('responseTooLarge', () => {
  it('returns a BadRequestError, not retried, naming max_response_bytes and its value', () => {
    const error = responseTooLarge(target, 1024);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(
      'anthropic/claude-sonnet-4-5 answered more than max_response_bytes (1024 bytes)',
    );
  });
});
