import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { toAnthropicBody } from '../../src/providers/anthropic/convert-request.js';
import { toConverseBody } from '../../src/providers/bedrock/convert-request.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import {
  OPENAI_ONLY_PARAMS,
  withoutUnsupportedParams,
} from '../../src/providers/shared/unsupported-params.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';

const target: ProviderTarget = {
  ...bedrockTarget(undefined),
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
};

describe('withoutUnsupportedParams', () => {
  it('returns the other fields untouched', () => {
    expect(withoutUnsupportedParams({ model: 'm', temperature: 0.2, top_k: 5 }, target, false)).toEqual({
      model: 'm',
      temperature: 0.2,
      top_k: 5,
    });
  });

  it('refuses OpenAI-only fields without drop_params, naming each and the fix', () => {
    expect(() => withoutUnsupportedParams({ seed: 7, logit_bias: { 1: 2 } }, target, false)).toThrow(
      BadRequestError,
    );
    expect(() => withoutUnsupportedParams({ seed: 7, logit_bias: { 1: 2 } }, target, undefined)).toThrow(
      'anthropic/claude-sonnet-4-5 does not support `seed`, `logit_bias`; set `drop_params: true`',
    );
  });

  it('removes OpenAI-only fields with drop_params', () => {
    expect(withoutUnsupportedParams({ model: 'm', seed: 7 }, target, true)).toEqual({ model: 'm' });
  });

  it.each([
    'verbosity',
    'prompt_cache_key',
    'safety_identifier',
    'store',
    'modalities',
    'audio',
    'prediction',
    'web_search_options',
  ])('treats %s as OpenAI-only', (field) => {
    expect(OPENAI_ONLY_PARAMS.has(field)).toBe(true);
    expect(() => withoutUnsupportedParams({ [field]: 'x' }, target, false)).toThrow(`\`${field}\``);
  });

  it('removes fields set to neutral values silently, without drop_params', () => {
    const fields = { model: 'm', n: 1, logprobs: false, store: null, response_format: { type: 'text' } };
    expect(withoutUnsupportedParams(fields, target, false)).toEqual({ model: 'm' });
  });

  it('refuses n other than 1 and a response_format other than text', () => {
    expect(() => withoutUnsupportedParams({ n: 2 }, target, false)).toThrow('`n`');
    expect(() =>
      withoutUnsupportedParams({ response_format: { type: 'json_object' } }, target, false),
    ).toThrow('`response_format`');
  });

  it('checks the provider’s own set of unsupported fields when given', () => {
    const unsupported = new Set([...OPENAI_ONLY_PARAMS, 'service_tier']);
    expect(() => withoutUnsupportedParams({ service_tier: 'flex' }, target, false, { unsupported })).toThrow(
      '`service_tier`',
    );
    expect(withoutUnsupportedParams({ service_tier: 'auto' }, target, false)).toEqual({
      service_tier: 'auto',
    });
  });

  it('refuses the fields the caller already judged unsupported, and keeps them in the result', () => {
    const options = { alsoRefused: ['parallel_tool_calls'] };
    expect(() => withoutUnsupportedParams({ parallel_tool_calls: false }, target, false, options)).toThrow(
      'does not support `parallel_tool_calls`',
    );
    expect(withoutUnsupportedParams({ parallel_tool_calls: false }, target, true, options)).toEqual({
      parallel_tool_calls: false,
    });
  });
});

describe('OpenAI-only fields on Claude-type providers', () => {
  const request = { model: 'group', messages: [{ role: 'user' as const, content: 'hi' }], verbosity: 'low' };
  const bedrock = bedrockTarget(undefined);

  it('refuses them on Anthropic and Bedrock without drop_params', () => {
    expect(() => toAnthropicBody(request, target, false)).toThrow('does not support `verbosity`');
    expect(() => toConverseBody(request, bedrock, false)).toThrow('does not support `verbosity`');
  });

  it('leaves them out of the Anthropic and Bedrock bodies with drop_params', () => {
    expect(toAnthropicBody(request, target, true)).not.toHaveProperty('verbosity');
    expect(toConverseBody(request, bedrock, true)).not.toHaveProperty('additionalModelRequestFields');
  });
});
