import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/errors/index.js';
import {
  encodeReasoningState,
  type InputItem,
  parseResponsesRequest,
  responsesToChatRequest,
} from '../../src/responses/index.js';

const chat = (body: Record<string, unknown>, history: InputItem[] = []) =>
  responsesToChatRequest(parseResponsesRequest({ model: 'm', ...body }), { history });

const SIGNED = [{ type: 'thinking' as const, thinking: 'Plan.', signature: 'sig-1' }];

describe('responsesToChatRequest', () => {
  it('puts instructions first as a system message and a string input as a user message', () => {
    expect(chat({ instructions: 'Be brief.', input: 'hi' }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('maps the sampling, limit and reasoning fields to their chat names', () => {
    const request = chat({
      input: 'hi',
      max_output_tokens: 64,
      temperature: 0.2,
      top_p: 0.9,
      reasoning: { effort: 'high', summary: 'auto' },
      user: 'u1',
      metadata: { tags: 'a' },
      parallel_tool_calls: false,
      prompt_cache_key: 'k',
      store: true,
      include: ['reasoning.encrypted_content'],
    });
    expect(request).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 64,
      temperature: 0.2,
      top_p: 0.9,
      reasoning_effort: 'high',
      user: 'u1',
      metadata: { tags: 'a' },
      parallel_tool_calls: false,
      prompt_cache_key: 'k',
    });
  });

  it('nests function tools under `function` and maps a named tool choice', () => {
    const request = chat({
      input: 'hi',
      tools: [
        { type: 'function', name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'f' },
    });
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: { name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true },
      },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
  });

  it('turns text.format json_schema into response_format, and verbosity into verbosity', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const request = chat({
      input: 'hi',
      text: { format: { type: 'json_schema', name: 'out', schema, strict: true }, verbosity: 'low' },
    });
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema, strict: true },
    });
    expect(request.verbosity).toBe('low');
  });

  it('asks a stream for its usage', () => {
    expect(chat({ input: 'hi', stream: true })).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('puts a function call on the assistant message before it and its output in a tool message', () => {
    const request = chat({
      input: [
        { role: 'user', content: 'Weather?' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
        },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call', call_id: 'c2', name: 'get_time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'noon' }] },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'noon' },
    ]);
  });

  it('keeps images as image parts, in user messages and function outputs', () => {
    const image = { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' };
    const request = chat({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, image] },
        { type: 'function_call_output', call_id: 'c', output: [image] },
      ],
    });
    const part = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } };
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is it?' }, part] },
      { role: 'tool', tool_call_id: 'c', content: [part] },
    ]);
  });

  it('gives the next assistant turn the signed thinking a reasoning item carries', () => {
    const request = chat({
      input: [
        { role: 'user', content: 'q' },
        {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'Plan.' }],
          encrypted_content: encodeReasoningState(SIGNED),
        },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      thinking_blocks: SIGNED,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('sends no reasoning for a summary alone or for encrypted content it did not write', () => {
    const request = chat({
      input: [
        { role: 'user', content: 'q' },
        {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'Plan.' }],
          encrypted_content: 'gAAAAB-openai',
        },
        { role: 'assistant', content: 'a' },
      ],
    });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: 'a' });
  });

  it('replays the history before the input, the new instructions only', () => {
    const history: InputItem[] = [
      { type: 'message', role: 'user', content: 'first' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'one', annotations: [] }],
      },
    ];
    expect(chat({ instructions: 'Now.', input: 'second' }, history).messages).toEqual([
      { role: 'system', content: 'Now.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'second' },
    ]);
  });

  it('refuses a request with nothing to answer', () => {
    expect(() => chat({ instructions: 'x' })).toThrow(BadRequestError);
    expect(() => chat({ instructions: 'x' })).toThrow('input: is required');
  });

  it('passes the router fields on', () => {
    expect(chat({ input: 'hi', mock_response: 'canned', fallbacks: ['b'] })).toMatchObject({
      mock_response: 'canned',
      fallbacks: ['b'],
    });
  });
});
