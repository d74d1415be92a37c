import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { supportsReasoning, toProviderReasoningParams } from '../../src/reasoning/index.js';

describe('toProviderReasoningParams (CONTRACT 5.4)', () => {
  it.each([
    ['minimal', 1024],
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
  ] as const)('Anthropic: %s -> budget_tokens %i, max_tokens above it', (effort, budget) => {
    const params = toProviderReasoningParams('anthropic', { reasoning_effort: effort, max_tokens: 1000 });
    expect(params).toEqual({
      max_tokens: budget + 4096,
      thinking: { type: 'enabled', budget_tokens: budget },
    });
  });

  it('Anthropic: none disables thinking', () => {
    expect(toProviderReasoningParams('anthropic', { reasoning_effort: 'none' })).toEqual({
      max_tokens: 4096,
    });
  });

  it('Anthropic: an explicit thinking wins over reasoning_effort', () => {
    expect(
      toProviderReasoningParams('anthropic', {
        reasoning_effort: 'low',
        thinking: { type: 'enabled', budget_tokens: 3000 },
        max_tokens: 10_000,
      }),
    ).toEqual({ max_tokens: 10_000, thinking: { type: 'enabled', budget_tokens: 3000 } });
  });

  it('Gemini 2.5: thinkingBudget with includeThoughts; none -> 0 without thoughts', () => {
    expect(
      toProviderReasoningParams('google', { model: 'gemini/gemini-2.5-flash', reasoning_effort: 'medium' }),
    ).toEqual({
      generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    expect(
      toProviderReasoningParams('gemini', { model: 'gemini-2.5-pro', reasoning_effort: 'none' }),
    ).toEqual({
      generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
    });
  });

  it('Gemini 3: thinkingLevel, never a budget as well', () => {
    const params = toProviderReasoningParams('gemini', {
      model: 'gemini-3-pro-preview',
      reasoning_effort: 'high',
    });
    expect(params).toEqual({
      generationConfig: { thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } },
    });
  });

  it('Vertex AI and Bedrock pick the Claude mapping for Claude models', () => {
    expect(
      toProviderReasoningParams('vertexai', { model: 'claude-sonnet-4-5', reasoning_effort: 'low' }),
    ).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect(
      toProviderReasoningParams('bedrock', {
        model: 'bedrock/us.anthropic.claude-sonnet-4-5-v1:0',
        reasoning_effort: 'high',
      }),
    ).toEqual({
      inferenceConfig: { maxTokens: 8192 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } },
    });
  });

  it('OpenRouter: the unified reasoning object', () => {
    expect(toProviderReasoningParams('openrouter', { reasoning_effort: 'high' })).toEqual({
      reasoning: { effort: 'high' },
    });
    expect(
      toProviderReasoningParams('openrouter', { thinking: { type: 'enabled', budget_tokens: 2000 } }),
    ).toEqual({
      reasoning: { max_tokens: 2000 },
    });
  });

  it('OpenAI passes reasoning_effort through', () => {
    expect(toProviderReasoningParams('openai', { reasoning_effort: 'low' })).toEqual({
      reasoning_effort: 'low',
    });
  });

  it('names the closest provider for an unknown one', () => {
    expect(() => toProviderReasoningParams('anthropc', {})).toThrow(BadRequestError);
    expect(() => toProviderReasoningParams('anthropc', {})).toThrow('did you mean `anthropic`?');
  });
});

describe('supportsReasoning', () => {
  it.each([
    ['anthropic/claude-sonnet-4-5', true],
    ['anthropic/claude-3-5-sonnet-20241022', false],
    ['deepseek/deepseek-reasoner', true],
    ['deepseek/deepseek-chat', false],
    ['bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0', true],
    ['vertex_ai/claude-opus-4-1@20250805', true],
    ['gemini/gemini-2.5-pro', true],
    ['xai/grok-3-mini', true],
    ['openrouter/anthropic/claude-sonnet-4-5', true],
    ['openai/gpt-4o', false],
    ['openai/my-custom-model', false],
  ])('%s -> %s', (model, expected) => {
    expect(supportsReasoning(model)).toBe(expected);
  });
});
