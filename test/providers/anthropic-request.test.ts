import { describe, expect, it } from 'vitest';
import { BadRequestError, type ChatCompletionRequest, type ChatMessage } from '../../src/index.js';
import { toAnthropicBody } from '../../src/providers/anthropic/index.js';
import { anthropicTarget } from './anthropic-helpers.js';

const target = (params: Record<string, unknown> = {}) =>
  anthropicTarget('https://api.anthropic.com', { apiKey: 'sk-ant-x', params });
const USER: ChatMessage[] = [{ role: 'user', content: 'hi' }];
const body = (extra: Partial<ChatCompletionRequest> = {}, dropParams?: boolean, t = target()) =>
  toAnthropicBody({ model: 'claude', messages: USER, ...extra }, t, dropParams);
const TOOL = {
  type: 'function' as const,
  function: { name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } },
};

describe('Anthropic request: messages', () => {
  it('lifts system and developer messages into top-level system, wherever they stand', () => {
    const b = body({
      messages: [
        { role: 'system', content: 'Rule one.' },
        { role: 'user', content: 'hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
      ],
    });
    expect(b.system).toEqual([
      { type: 'text', text: 'Rule one.' },
      { type: 'text', text: 'Rule two.' },
    ]);
    expect(b.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('keeps a single plain system message as a string', () => {
    expect(body({ messages: [{ role: 'system', content: 'Be brief.' }, ...USER] }).system).toBe('Be brief.');
  });

  it('merges consecutive same-role messages, as Anthropic requires', () => {
    const b = body({
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ],
    });
    expect(b.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });

  it('turns assistant tool_calls into tool_use blocks with parsed input', () => {
    const b = body({
      messages: [
        ...USER,
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'toolu_a', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
            { id: 'toolu_b', type: 'function', function: { name: 'lookup', arguments: '' } },
          ],
        },
      ],
    });
    expect((b.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { q: 'x' } },
        { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: {} },
      ],
    });
  });

  it('puts consecutive tool messages into one user message of tool_result blocks, then any user text', () => {
    const b = body({
      messages: [
        ...USER,
        {
          role: 'assistant',
          tool_calls: [
            { id: 't1', type: 'function', function: { name: 'lookup', arguments: '{}' } },
            { id: 't2', type: 'function', function: { name: 'lookup', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 't1', content: 'one' },
        { role: 'tool', tool_call_id: 't2', content: [{ type: 'text', text: 'two' }] },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect((b.messages as unknown[])[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'one' },
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'two' }] },
        { type: 'text', text: 'thanks' },
      ],
    });
  });

  it('refuses tool call arguments that are not a JSON object', () => {
    const messages: ChatMessage[] = [
      ...USER,
      {
        role: 'assistant',
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{oops' } }],
      },
    ];
    expect(() => body({ messages })).toThrow(BadRequestError);
  });

  it('sends data: URI images as base64 sources and http(s) URLs as url sources', () => {
    const b = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'image_url', image_url: { url: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
      ],
    });
    expect((b.messages as Array<{ content: unknown }>)[0]?.content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
    ]);
  });

  it('keeps cache_control marks on the parts they mark', () => {
    const part = { type: 'text', text: 'long doc', cache_control: { type: 'ephemeral' } };
    const b = body({ messages: [{ role: 'user', content: [part as never] }] });
    expect((b.messages as Array<{ content: unknown }>)[0]?.content).toEqual([part]);
  });
});

describe('Anthropic request: parameters', () => {
  it('defaults max_tokens to 4096, else takes max_tokens or max_completion_tokens', () => {
    expect(body().max_tokens).toBe(4096);
    expect(body({ max_completion_tokens: 300 }).max_tokens).toBe(300);
    expect(body({ max_tokens: 200, max_completion_tokens: 300 }).max_tokens).toBe(200);
  });

  it('maps stop to stop_sequences and user to metadata.user_id', () => {
    expect(body({ stop: 'END', user: 'u-42' })).toMatchObject({
      stop_sequences: ['END'],
      metadata: { user_id: 'u-42' },
    });
    expect(body({ stop: ['a', 'b'] }).stop_sequences).toEqual(['a', 'b']);
  });

  it('passes temperature, top_p and top_k through', () => {
    expect(body({ temperature: 0.2, top_p: 0.9, top_k: 40 })).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
    });
  });

  it('gives a tool without parameters an empty object schema', () => {
    const b = body({ tools: [{ type: 'function', function: { name: 'now' } }] });
    expect(b.tools).toEqual([{ name: 'now', input_schema: { type: 'object', properties: {} } }]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [
      { type: 'function', function: { name: 'lookup' } },
      { type: 'tool', name: 'lookup' },
    ],
  ] as const)('maps tool_choice %j to %j', (choice, expected) => {
    expect(body({ tools: [TOOL], tool_choice: choice }).tool_choice).toEqual(expected);
  });

  it('maps parallel_tool_calls: false to disable_parallel_tool_use', () => {
    expect(body({ tools: [TOOL], parallel_tool_calls: false }).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('refuses OpenAI-only parameters without drop_params and removes them with it', () => {
    expect(() => body({ seed: 7, frequency_penalty: 0.5 })).toThrow(
      /does not support `seed`, `frequency_penalty`/,
    );
    const dropped = body({ seed: 7, frequency_penalty: 0.5 }, true);
    expect(dropped).not.toHaveProperty('seed');
    expect(dropped).not.toHaveProperty('frequency_penalty');
  });

  it('ignores OpenAI-only parameters set to their neutral values', () => {
    expect(() => body({ n: 1, logprobs: false, response_format: { type: 'text' } })).not.toThrow();
  });

  it('passes Anthropic-native fields through and drops stream_options', () => {
    const b = body({ service_tier: 'standard_only', stream_options: { include_usage: true } });
    expect(b.service_tier).toBe('standard_only');
    expect(b).not.toHaveProperty('stream_options');
  });
});
