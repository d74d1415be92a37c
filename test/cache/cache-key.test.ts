import { describe, expect, it } from 'vitest';
import { cacheKey, keySpaceOf } from '../../src/cache/cache-key.js';

const base = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] };
const key = (
  request: Record<string, unknown>,
  kind: Parameters<typeof cacheKey>[0] = 'chat',
  space = 'gpt-4o',
) => cacheKey(kind, space, request);

describe('cache key', () => {
  const changes: Array<[string, Record<string, unknown>]> = [
    ['messages', { messages: [{ role: 'user', content: 'goodbye' }] }],
    ['a system message', { messages: [{ role: 'system', content: 'be brief' }, ...base.messages] }],
    ['tools', { tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] }],
    ['tool_choice', { tool_choice: 'required' }],
    ['temperature', { temperature: 0.2 }],
    ['top_p', { top_p: 0.5 }],
    ['max_tokens', { max_tokens: 5 }],
    ['max_completion_tokens', { max_completion_tokens: 5 }],
    ['seed', { seed: 7 }],
    ['response_format', { response_format: { type: 'json_object' } }],
    ['reasoning_effort', { reasoning_effort: 'high' }],
    ['thinking', { thinking: { type: 'enabled', budget_tokens: 1024 } }],
    ['stop', { stop: ['\n'] }],
    ['n', { n: 2 }],
    ['logit_bias', { logit_bias: { '50256': -100 } }],
    ['a field the router does not know', { some_new_provider_field: true }],
    ['mock_response (it is the answer)', { mock_response: 'canned' }],
  ];
  for (const [what, extra] of changes) {
    it(`changes with ${what}`, () => {
      expect(key({ ...base, ...extra })).not.toBe(key(base));
    });
  }

  const ignored: Array<[string, Record<string, unknown>]> = [
    ['metadata', { metadata: { trace: 'abc' } }],
    ['user', { user: 'end-user-42' }],
    ['stream', { stream: true, stream_options: { include_usage: true } }],
    ['the model name (the key space stands for it)', { model: 'gpt-4o-alias' }],
    [
      'router-only fields',
      { num_retries: 5, timeout: 3, fallbacks: ['x'], cache: { ttl: 5 }, drop_params: true },
    ],
  ];
  for (const [what, extra] of ignored) {
    it(`ignores ${what}`, () => {
      expect(key({ ...base, ...extra })).toBe(key(base));
    });
  }

  it('does not depend on the order of keys', () => {
    expect(key({ temperature: 0, ...base, tools: [{ a: 1, b: 2 }] })).toBe(
      key({ tools: [{ b: 2, a: 1 }], ...base, temperature: 0 }),
    );
  });

  it('tells a field set to undefined from none only by leaving it out', () => {
    expect(key({ ...base, temperature: undefined })).toBe(key(base));
  });

  it('differs by kind and by key space', () => {
    const prompt = { model: 'm', prompt: 'hi' };
    expect(key(prompt, 'textCompletion')).not.toBe(key(prompt, 'imageGeneration'));
    expect(key(base, 'chat', 'gpt-4o')).not.toBe(key(base, 'chat', 'claude'));
  });

  it('puts the members of a caching group in one key space', () => {
    const groups = [['gpt-4o', 'gpt-4o-eu']];
    expect(keySpaceOf('gpt-4o-eu', groups)).toBe(keySpaceOf('gpt-4o', groups));
    expect(keySpaceOf('claude', groups)).toBe('claude');
  });
});
