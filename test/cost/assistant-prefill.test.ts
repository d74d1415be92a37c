import { describe, expect, it } from 'vitest';
import { supportsAssistantPrefill } from '../../src/cost/assistant-prefill.js';

describe('supportsAssistantPrefill (the cost map’s model fact)', () => {
  it('is true for Claude before 4.6 on every provider that serves it', () => {
    for (const model of [
      'anthropic/claude-sonnet-4-5',
      'claude-opus-4-20250514',
      'claude-haiku-4-5',
      'claude-3-5-sonnet@20240620',
      'anthropic.claude-3-7-sonnet-20250219-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic/claude-3.5-sonnet',
    ])
      expect([model, supportsAssistantPrefill(model)]).toEqual([model, true]);
  });

  it('is false for Claude 4.6 on, which refuses a prefill', () => {
    for (const model of ['claude-opus-4-6', 'anthropic/claude-sonnet-4.6', 'claude-sonnet-5'])
      expect([model, supportsAssistantPrefill(model)]).toEqual([model, false]);
  });

  it('is true for DeepSeek and Mistral chat models, false for OpenAI, Gemini and xAI', () => {
    const facts = [
      'deepseek-chat',
      'deepseek-reasoner',
      'mistral-large',
      'gpt-4o',
      'gemini-2.5-pro',
      'grok-4',
    ].map((model) => supportsAssistantPrefill(model));
    expect(facts).toEqual([true, true, true, false, false, false]);
  });
});
