// The wildcard resolver (CONTRACT 6.7): which `model_name` pattern serves a requested model, and what
// its deployment's `svc_params.model` becomes.
import { describe, expect, it } from 'vitest';
import { fillWildcard, isWildcardName, matchWildcard } from '../../src/router/wildcard-groups.js';

describe('matchWildcard', () => {
  it('matches a provider pattern and returns the part the `*` stands for', () => {
    expect(matchWildcard('openai/gpt-4o', ['openai/*'])).toEqual({ pattern: 'openai/*', matched: 'gpt-4o' });
  });

  it('lets `*` match any model, whole', () => {
    expect(matchWildcard('groq/llama3', ['*'])).toEqual({ pattern: '*', matched: 'groq/llama3' });
  });

  it('prefers the longest pattern whatever the order', () => {
    const patterns = ['*', 'openai/gpt-*', 'openai/*'];
    expect(matchWildcard('openai/gpt-4o', patterns)).toEqual({ pattern: 'openai/gpt-*', matched: '4o' });
    expect(matchWildcard('openai/o3', patterns)).toEqual({ pattern: 'openai/*', matched: 'o3' });
    expect(matchWildcard('anthropic/claude', patterns)?.pattern).toBe('*');
  });

  it('needs the `*` to match at least one character', () => {
    expect(matchWildcard('openai/', ['openai/*'])).toBeUndefined();
  });

  it('matches nothing outside its prefix', () => {
    expect(matchWildcard('anthropic/claude', ['openai/*'])).toBeUndefined();
  });
});

describe('fillWildcard', () => {
  it('puts the matched part where the `*` is', () => {
    expect(fillWildcard('openai/*', 'gpt-4o')).toBe('openai/gpt-4o');
    expect(fillWildcard('*', 'openai/gpt-4o')).toBe('openai/gpt-4o');
    expect(fillWildcard('anthropic/claude-*', 'sonnet-4')).toBe('anthropic/claude-sonnet-4');
  });

  it('leaves a model without `*` as it is', () => {
    expect(fillWildcard('openai/gpt-4o', 'anything')).toBe('openai/gpt-4o');
  });
});

describe('isWildcardName', () => {
  it('is a name ending in `*`', () => {
    expect(isWildcardName('openai/*')).toBe(true);
    expect(isWildcardName('*')).toBe(true);
    expect(isWildcardName('gpt-4o')).toBe(false);
  });
});
