import { describe, expect, it } from 'vitest';
import { BadRequestError, type ChatCompletionRequest, type ChatMessage } from '../../src/index.js';
import { anthropicReasoningParams, toAnthropicBody } from '../../src/providers/anthropic/index.js';
import { anthropicTarget } from './anthropic-helpers.js';

const target = (params: Record<string, unknown> = {}) =>
  anthropicTarget('https://api.anthropic.com', { apiKey: 'sk-ant-x', params });
const USER: ChatMessage[] = [{ role: 'user', content: 'hi' }];
const body = (extra: Partial<ChatCompletionRequest> = {}, dropParams?: boolean, t = target()) =>
  toAnthropicBody({ model: 'claude', messages: USER, ...extra }, t, dropParams);

describe('Anthropic request: reasoning', () => {
  it.each([
    ['minimal', 1024],
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
  ] as const)('maps reasoning_effort %s to budget_tokens %d', (effort, budget) => {
    expect(body({ reasoning_effort: effort }).thinking).toEqual({ type: 'enabled', budget_tokens: budget });
  });

  it('sends no thinking for reasoning_effort none', () => {
    expect(body({ reasoning_effort: 'none' })).not.toHaveProperty('thinking');
  });

  it('raises max_tokens to budget + 4096 when it is not above the budget, and keeps it otherwise', () => {
    expect(body({ reasoning_effort: 'high', max_tokens: 4096 }).max_tokens).toBe(8192);
    expect(body({ reasoning_effort: 'high', max_tokens: 5000 }).max_tokens).toBe(5000);
    expect(body({ thinking: { type: 'enabled', budget_tokens: 10000 } }).max_tokens).toBe(14096);
  });

  it('lets an explicit thinking object win over reasoning_effort', () => {
    const b = body({ thinking: { type: 'enabled', budget_tokens: 3000 }, reasoning_effort: 'high' });
    expect(b.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(b).not.toHaveProperty('reasoning_effort');
  });

  it('uses thinking preset in svc_params', () => {
    const b = body({}, undefined, target({ thinking: { type: 'enabled', budget_tokens: 2000 } }));
    expect(b.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });

  it('refuses an unknown reasoning_effort', () => {
    expect(() => body({ reasoning_effort: 'extreme' as never })).toThrow(BadRequestError);
  });

  it('drops temperature, top_k and a low top_p with thinking on and drop_params', () => {
    const b = body({ reasoning_effort: 'low', temperature: 0.2, top_k: 5, top_p: 0.5 }, true);
    expect(b).not.toHaveProperty('temperature');
    expect(b).not.toHaveProperty('top_k');
    expect(b).not.toHaveProperty('top_p');
    expect(body({ reasoning_effort: 'low', temperature: 1, top_p: 0.97 }, true)).toMatchObject({
      temperature: 1,
      top_p: 0.97,
    });
  });

  it('applies the same drop to adaptive thinking, and none to disabled thinking', () => {
    const adaptive = body({ thinking: { type: 'adaptive' } as never, temperature: 0.2 }, true);
    expect(adaptive).toEqual(expect.objectContaining({ thinking: { type: 'adaptive' }, max_tokens: 4096 }));
    expect(adaptive).not.toHaveProperty('temperature');
    expect(body({ thinking: { type: 'disabled' }, temperature: 0.2 }, true).temperature).toBe(0.2);
  });

  it('sends sampling parameters with thinking on when drop_params is off, for Anthropic to judge', () => {
    expect(body({ reasoning_effort: 'low', temperature: 0.2, top_k: 5 })).toMatchObject({
      temperature: 0.2,
      top_k: 5,
    });
  });

  it('puts thinking and redacted_thinking blocks first in their turn, signatures verbatim', () => {
    const b = body({
      messages: [
        ...USER,
        {
          role: 'assistant',
          content: 'Checking.',
          reasoning_content: 'plan',
          thinking_blocks: [
            { type: 'thinking', thinking: 'plan', signature: 'c2lnbmF0dXJl+/==' },
            { type: 'redacted_thinking', data: 'EmwKAhgB' },
          ],
          tool_calls: [{ id: 't', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
        },
      ],
    });
    expect((b.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'c2lnbmF0dXJl+/==' },
        { type: 'redacted_thinking', data: 'EmwKAhgB' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 't', name: 'lookup', input: {} },
      ],
    });
  });

  it('drops reasoning_content that has no signed thinking block, silently', () => {
    const b = body({
      messages: [
        ...USER,
        { role: 'assistant', content: 'Answer.', reasoning_content: 'from another provider' },
        {
          role: 'assistant',
          content: 'More.',
          thinking_blocks: [{ type: 'thinking', thinking: 'unsigned' }],
        },
      ],
    });
    expect((b.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Answer.' },
        { type: 'text', text: 'More.' },
      ],
    });
  });
});

describe('anthropicReasoningParams', () => {
  it('returns the native fields for an effort', () => {
    expect(anthropicReasoningParams({ reasoning_effort: 'medium' })).toEqual({
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });

  it('passes a disabled thinking object through without touching max_tokens', () => {
    expect(anthropicReasoningParams({ thinking: { type: 'disabled' }, max_tokens: 10 })).toEqual({
      max_tokens: 10,
      thinking: { type: 'disabled' },
    });
  });
});
