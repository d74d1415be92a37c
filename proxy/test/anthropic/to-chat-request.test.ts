import { BadRequestError } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { anthropicToChatRequest } from '../../src/anthropic/to-chat-request.js';

const base = { model: 'claude', max_tokens: 256 };

function rejection(body: unknown): BadRequestError {
  try {
    anthropicToChatRequest(body);
  } catch (error) {
    if (error instanceof BadRequestError) return error;
    throw error;
  }
  throw new Error('expected a BadRequestError');
}

describe('anthropicToChatRequest', () => {
  it('maps a plain text conversation', () => {
    const request = anthropicToChatRequest({ ...base, messages: [{ role: 'user', content: 'hi' }] });
    expect(request).toEqual({
      model: 'claude',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('puts a string system prompt first', () => {
    const request = anthropicToChatRequest({
      ...base,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(request.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('joins system text blocks into one system message', () => {
    const request = anthropicToChatRequest({
      ...base,
      system: [
        { type: 'text', text: 'One.' },
        { type: 'text', text: 'Two.' },
      ],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(request.messages[0]).toEqual({ role: 'system', content: 'One.\nTwo.' });
  });

  it('keeps system blocks as parts when one carries a cache mark', () => {
    const request = anthropicToChatRequest({
      ...base,
      system: [{ type: 'text', text: 'Long.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(request.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'Long.', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('turns text and base64 and url images into parts', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  it('turns assistant tool_use into tool_calls with JSON arguments', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
  });

  it('gives an assistant turn of only tool calls null content', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      ],
    });
    expect(request.messages[1]?.content).toBeNull();
  });

  it('places tool results as tool messages before the rest of the user turn', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go.' },
            { type: 'tool_result', tool_use_id: 't1', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'rainy' }] },
          ],
        },
      ],
    });
    expect(request.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
      { role: 'tool', tool_call_id: 't2', content: 'rainy' },
      { role: 'user', content: [{ type: 'text', text: 'Here you go.' }] },
    ]);
  });

  it('keeps assistant thinking as thinking_blocks with signatures and as reasoning_content', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        { role: 'user', content: '2+2?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Add them.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: '4' },
          ],
        },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: '4',
      reasoning_content: 'Add them.',
      thinking_blocks: [
        { type: 'thinking', thinking: 'Add them.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
    });
  });

  it('sends an unsigned thinking block back as reasoning_content only', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Call the tool.', signature: '' },
            { type: 'tool_use', id: 't1', name: 'get_weather', input: {} },
          ],
        },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Call the tool.',
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    });
  });

  it('turns the images of a tool result into parts', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'Screenshot:' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
              ],
            },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'tool',
        tool_call_id: 't1',
        content: [
          { type: 'text', text: 'Screenshot:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
        ],
      },
    ]);
  });

  it('maps tools to functions with input_schema as parameters', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'get_weather', description: 'Weather now', input_schema: schema }],
    });
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: schema } },
    ]);
  });

  it("keeps a custom tool's strict flag", () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'custom', name: 'f', input_schema: { type: 'object' }, strict: true }],
    });
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'f', parameters: { type: 'object' }, strict: true } },
    ]);
  });

  it('passes an Anthropic server tool as it is', () => {
    const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'news?' }],
      tools: [webSearch],
    });
    expect(request.tools).toEqual([webSearch]);
  });

  it('names a custom tool without input_schema', () => {
    const error = rejection({ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f' }] });
    expect(error.message).toContain('tools[0].input_schema: is required');
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [
      { type: 'tool', name: 'f' },
      { type: 'function', function: { name: 'f' } },
    ],
  ])('maps tool_choice %j', (choice, expected) => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: choice,
    });
    expect(request.tool_choice).toEqual(expected);
  });

  it('turns disable_parallel_tool_use into parallel_tool_calls false', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(request.parallel_tool_calls).toBe(false);
  });

  it('maps sampling, thinking, user and stream fields', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      stop_sequences: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      metadata: { user_id: 'user-7' },
      stream: true,
    });
    expect(request).toMatchObject({
      stop: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      user: 'user-7',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('passes adaptive thinking as it is', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'adaptive', display: 'summarized' },
    });
    expect(request.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it('refuses an unknown thinking type, naming the types it takes', () => {
    const error = rejection({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'on' },
    });
    expect(error.message).toContain('thinking.type:');
    expect(error.message).toContain('"adaptive"');
  });

  it('keeps output_config when it asks for an output format', () => {
    const outputConfig = { format: { type: 'json_schema', schema: { type: 'object' } }, effort: 'low' };
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      output_config: outputConfig,
    });
    expect(request.output_config).toEqual(outputConfig);
  });

  it('leaves out Anthropic-only fields and an output_config of effort alone', () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      output_config: { effort: 'high' },
      service_tier: 'standard_only',
      container: 'c-1',
    });
    expect(Object.keys(request).sort()).toEqual(['max_tokens', 'messages', 'model']);
  });

  it("passes the router's own fields along", () => {
    const request = anthropicToChatRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      mock_response: 'canned',
      fallbacks: ['other'],
    });
    expect(request).toMatchObject({ mock_response: 'canned', fallbacks: ['other'] });
  });

  it('refuses a body that is not an object', () => {
    expect(rejection([1, 2]).message).toContain('JSON object');
  });

  it('names each missing required field', () => {
    const message = rejection({ messages: [{ role: 'user', content: 'hi' }] }).message;
    expect(message).toContain('model: is required');
    expect(message).toContain('max_tokens: is required');
  });

  it('names the bad field inside a content block', () => {
    const error = rejection({
      ...base,
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }] },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.message).toContain('messages[0].content[0].source.data: is required');
  });

  it('names an unknown block type and the types it takes', () => {
    const error = rejection({ ...base, messages: [{ role: 'user', content: [{ type: 'video' }] }] });
    expect(error.message).toContain('messages[0].content[0].type: expected one of `text`');
  });

  it('refuses a tool_result in an assistant turn', () => {
    const error = rejection({
      ...base,
      messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }],
    });
    expect(error.message).toContain(
      'messages[0].content[0]: a `tool_result` block belongs in a user message',
    );
  });

  it('refuses a tool_choice of type tool without a name', () => {
    const error = rejection({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: { type: 'tool' },
    });
    expect(error.message).toContain('tool_choice.name: is required');
  });
});
