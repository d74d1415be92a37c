import { describe, expect, it } from 'vitest';
import { chatCompletionToAnthropic } from '../../src/anthropic/to-anthropic-message.js';
import { completion } from './chunks.js';

describe('chatCompletionToAnthropic', () => {
  it('answers a text completion as an Anthropic message', () => {
    const message = chatCompletionToAnthropic(completion({ content: 'Hello' }, 'stop'), 'claude');
    expect(message).toEqual({
      id: 'msg_chatcmpl-9',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [{ type: 'text', text: 'Hello' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  });

  it('gives back the web searches Anthropic ran, as server_tool_use', () => {
    const searched = completion({ content: 'Found.' }, 'stop');
    searched.usage = { ...searched.usage, server_tool_use: { web_search_requests: 2 } };
    const message = chatCompletionToAnthropic(searched, 'claude');
    expect(message.usage).toEqual({
      input_tokens: 10,
      output_tokens: 5,
      server_tool_use: { web_search_requests: 2 },
    });
  });

  it('puts thinking blocks with their signatures first, then text, then tool use', () => {
    const message = chatCompletionToAnthropic(
      completion(
        {
          content: 'Checking.',
          reasoning_content: 'Think.',
          thinking_blocks: [
            { type: 'thinking', thinking: 'Think.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
          ],
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        'tool_calls',
      ),
      'claude',
    );
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Think.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('gives reasoning without thinking blocks one unsigned thinking block', () => {
    const message = chatCompletionToAnthropic(
      completion({ content: '4', reasoning_content: 'Add.' }, 'stop'),
      'm',
    );
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Add.', signature: '' });
  });

  it('leaves out an empty text block', () => {
    const message = chatCompletionToAnthropic(
      completion(
        { content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] },
        'tool_calls',
      ),
      'm',
    );
    expect(message.content).toEqual([{ type: 'tool_use', id: 'c', name: 'f', input: {} }]);
  });

  it('keeps broken tool arguments under _raw rather than losing them', () => {
    const message = chatCompletionToAnthropic(
      completion(
        { tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] },
        'tool_calls',
      ),
      'm',
    );
    expect(message.content[0]).toMatchObject({ input: { _raw: '{"a":' } });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['content_filter', 'refusal'],
  ] as const)('maps finish_reason %s to stop_reason %s', (finish, stop) => {
    expect(chatCompletionToAnthropic(completion({ content: 'x' }, finish), 'm').stop_reason).toBe(stop);
  });

  it('reports the stop sequence an Anthropic deployment matched', () => {
    const done = completion(
      { content: 'Counting: 1, 2', provider_specific_fields: { stop_sequence: ', 3' } },
      'stop',
    );
    expect(chatCompletionToAnthropic(done, 'm')).toMatchObject({
      stop_reason: 'stop_sequence',
      stop_sequence: ', 3',
    });
  });

  it('keeps an Anthropic message id as it is', () => {
    const message = chatCompletionToAnthropic(
      { ...completion({ content: 'x' }, 'stop'), id: 'msg_01abc' },
      'm',
    );
    expect(message.id).toBe('msg_01abc');
  });

  it('splits cached input out of input_tokens', () => {
    const done = completion({ content: 'x' }, 'stop');
    done.usage = {
      prompt_tokens: 3580,
      completion_tokens: 16,
      total_tokens: 3596,
      prompt_tokens_details: { cached_tokens: 3072, cache_creation_tokens: 496 },
    };
    expect(chatCompletionToAnthropic(done, 'm').usage).toEqual({
      input_tokens: 12,
      output_tokens: 16,
      cache_read_input_tokens: 3072,
      cache_creation_input_tokens: 496,
    });
  });
});
