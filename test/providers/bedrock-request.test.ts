import { describe, expect, it } from 'vitest';
import { BadRequestError, type ChatCompletionRequest, type ChatMessage } from '../../src/index.js';
import { bedrockReasoningParams, toConverseBody } from '../../src/providers/bedrock/index.js';
import { bedrockTarget, CLAUDE } from '../fixtures/bedrock/load.js';

const claude = bedrockTarget('http://bedrock.test');
const nova = bedrockTarget('http://bedrock.test', 'amazon.nova-pro-v1:0');
const user = (content: string): ChatMessage => ({ role: 'user', content });
const body = (request: Partial<ChatCompletionRequest>, target = claude, dropParams?: boolean) =>
  toConverseBody({ model: 'group', messages: [user('hi')], ...request }, target, dropParams);

describe('Bedrock Converse request: messages', () => {
  it('lifts system and developer messages into system text blocks', () => {
    const out = body({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        user('hi'),
      ],
    });
    expect(out.system).toEqual([{ text: 'Be brief.' }, { text: 'Answer in French.' }]);
    expect(out.messages).toEqual([{ role: 'user', content: [{ text: 'hi' }] }]);
  });

  it('sends consecutive tool messages back as one user message of toolResult blocks', () => {
    const out = body({
      messages: [
        user('weather and time in Paris?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'tooluse_a',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Paris"}' },
            },
            { id: 'tooluse_b', type: 'function', function: { name: 'time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'tooluse_a', content: '18C' },
        { role: 'tool', tool_call_id: 'tooluse_b', content: [{ type: 'text', text: '14:02' }] },
        user('thanks'),
      ],
    });
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'weather and time in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'tooluse_a', name: 'weather', input: { city: 'Paris' } } },
          { toolUse: { toolUseId: 'tooluse_b', name: 'time', input: {} } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tooluse_a', content: [{ text: '18C' }] } },
          { toolResult: { toolUseId: 'tooluse_b', content: [{ text: '14:02' }] } },
          { text: 'thanks' },
        ],
      },
    ]);
  });

  it('refuses tool call arguments that are not a JSON object', () => {
    const messages: ChatMessage[] = [
      user('x'),
      {
        role: 'assistant',
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{' } }],
      },
    ];
    expect(() => body({ messages })).toThrow(BadRequestError);
  });

  it('sends data: URI images inline and s3:// images by location', () => {
    const out = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'compare' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'image_url', image_url: { url: 's3://bucket/photos/cat.png' } },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { text: 'compare' },
          { image: { format: 'jpeg', source: { bytes: '/9j/4AAQ' } } },
          { image: { format: 'png', source: { s3Location: { uri: 's3://bucket/photos/cat.png' } } } },
        ],
      },
    ]);
  });

  it('refuses http image URLs, which Converse cannot fetch', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
    ];
    expect(() => body({ messages })).toThrow(/data:` URIs or `s3:\/\/` locations/);
  });
});

describe('Bedrock Converse request: reasoning history', () => {
  const assistant: ChatMessage = {
    role: 'assistant',
    content: 'It is 42.',
    reasoning_content: 'thinking about it',
    thinking_blocks: [
      { type: 'thinking', thinking: 'thinking about it', signature: 'sig-abc==' },
      { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
      { type: 'thinking', thinking: 'unsigned, from another provider' },
    ],
    tool_calls: [{ id: 'tooluse_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
  };

  it('sends Claude thinking_blocks back as reasoningContent before text and toolUse, signatures verbatim', () => {
    const out = body({
      messages: [user('q'), assistant, { role: 'tool', tool_call_id: 'tooluse_1', content: 'ok' }],
    });
    expect((out.messages as Array<{ content: unknown[] }>)[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'thinking about it', signature: 'sig-abc==' } } },
      { reasoningContent: { redactedContent: 'ZW5jcnlwdGVk' } },
      { text: 'It is 42.' },
      { toolUse: { toolUseId: 'tooluse_1', name: 'f', input: {} } },
    ]);
  });

  it('sends native reasoningContentBlocks back when a Claude message has no thinking_blocks', () => {
    const native = [{ reasoningText: { text: 'r', signature: 's' } }];
    const out = body({
      messages: [
        user('q'),
        { role: 'assistant', content: 'a', provider_specific_fields: { reasoningContentBlocks: native } },
        user('again'),
      ],
    });
    expect((out.messages as Array<{ content: unknown[] }>)[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'r', signature: 's' } } },
      { text: 'a' },
    ]);
  });

  it('refuses thinking_blocks for a non-Claude model without drop_params', () => {
    expect(() => body({ messages: [user('q'), assistant] }, nova)).toThrow(/drop_params/);
  });

  it('removes thinking_blocks for a non-Claude model with drop_params', () => {
    const out = body({ messages: [user('q'), assistant] }, nova, true);
    expect((out.messages as Array<{ content: unknown[] }>)[1]?.content).toEqual([
      { text: 'It is 42.' },
      { toolUse: { toolUseId: 'tooluse_1', name: 'f', input: {} } },
    ]);
  });
});

describe('Bedrock Converse request: parameters', () => {
  it('maps sampling fields into inferenceConfig', () => {
    const out = body({ max_tokens: 300, temperature: 0.3, top_p: 0.9, stop: 'END' });
    expect(out.inferenceConfig).toEqual({
      maxTokens: 300,
      temperature: 0.3,
      topP: 0.9,
      stopSequences: ['END'],
    });
  });

  it('maps tools and tool_choice into toolConfig', () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'weather', description: 'Weather now', parameters: { type: 'object' } },
      },
      { type: 'function' as const, function: { name: 'ping' } },
    ];
    const specs = [
      {
        toolSpec: { name: 'weather', description: 'Weather now', inputSchema: { json: { type: 'object' } } },
      },
      { toolSpec: { name: 'ping', inputSchema: { json: { type: 'object', properties: {} } } } },
    ];
    expect(body({ tools }).toolConfig).toEqual({ tools: specs });
    expect(body({ tools, tool_choice: 'auto' }).toolConfig).toEqual({
      tools: specs,
      toolChoice: { auto: {} },
    });
    expect(body({ tools, tool_choice: 'required' }).toolConfig).toEqual({
      tools: specs,
      toolChoice: { any: {} },
    });
    expect(body({ tools, tool_choice: { type: 'function', function: { name: 'ping' } } }).toolConfig).toEqual(
      { tools: specs, toolChoice: { tool: { name: 'ping' } } },
    );
    expect(body({ tools, tool_choice: 'none' }).toolConfig).toBeUndefined();
  });

  it('passes provider params through additionalModelRequestFields and Converse fields as they are', () => {
    const out = body({ top_k: 40, guardrailConfig: { guardrailIdentifier: 'g1', guardrailVersion: '1' } });
    expect(out.additionalModelRequestFields).toEqual({ top_k: 40 });
    expect(out.guardrailConfig).toEqual({ guardrailIdentifier: 'g1', guardrailVersion: '1' });
  });

  it('refuses OpenAI-only fields without drop_params and removes them with it', () => {
    expect(() => body({ seed: 7, presence_penalty: 0.5 })).toThrow(/`seed`, `presence_penalty`/);
    const out = body({ seed: 7, presence_penalty: 0.5, n: 1 }, claude, true);
    expect(out).not.toHaveProperty('seed');
    expect(out.additionalModelRequestFields).toBeUndefined();
  });

  it('uses svc_params request defaults under the request', () => {
    const target = bedrockTarget('http://bedrock.test', CLAUDE, { temperature: 0.2, max_tokens: 100 });
    expect(body({ temperature: 0.7 }, target).inferenceConfig).toEqual({ maxTokens: 100, temperature: 0.7 });
  });
});

describe('Bedrock Converse request: reasoning parameters', () => {
  it.each([
    ['minimal', 1024],
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
  ] as const)('turns reasoning_effort %s into Claude thinking with budget %i', (effort, budget) => {
    const out = body({ reasoning_effort: effort });
    expect(out.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: budget },
    });
    expect(out.inferenceConfig).toEqual({ maxTokens: budget < 4096 ? 4096 : 8192 });
  });

  it('raises maxTokens to budget + 4096 when the caller’s max_tokens is not above the budget', () => {
    expect(body({ reasoning_effort: 'medium', max_tokens: 2048 }).inferenceConfig).toEqual({
      maxTokens: 6144,
    });
    expect(body({ reasoning_effort: 'medium', max_tokens: 3000 }).inferenceConfig).toEqual({
      maxTokens: 3000,
    });
  });

  it('sends no thinking for reasoning_effort none', () => {
    const out = body({ reasoning_effort: 'none' });
    expect(out.additionalModelRequestFields).toBeUndefined();
    expect(out.inferenceConfig).toBeUndefined();
  });

  it('lets an explicit thinking object win over reasoning_effort', () => {
    const out = body({ reasoning_effort: 'low', thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(out.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(out.inferenceConfig).toEqual({ maxTokens: 4096 });
  });

  it('applies a thinking preset from svc_params', () => {
    const target = bedrockTarget('http://bedrock.test', `us.${CLAUDE}`, {
      thinking: { type: 'enabled', budget_tokens: 1500 },
    });
    expect(body({}, target).additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 1500 },
    });
  });

  it('removes sampling fields Claude refuses with thinking on, when drop_params is set', () => {
    const out = body({ reasoning_effort: 'low', temperature: 0.2, top_p: 0.5, top_k: 5 }, claude, true);
    expect(out.inferenceConfig).toEqual({ maxTokens: 4096 });
    expect(out.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('passes reasoning_effort through unchanged for a model that is not Claude', () => {
    const gptOss = bedrockTarget('http://bedrock.test', 'openai.gpt-oss-120b-1:0');
    expect(body({ reasoning_effort: 'high' }, gptOss).additionalModelRequestFields).toEqual({
      reasoning_effort: 'high',
    });
  });

  it('exports the translation as a pure function', () => {
    expect(bedrockReasoningParams({ reasoning_effort: 'high', max_tokens: 1000 })).toEqual({
      inferenceConfig: { maxTokens: 8192 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } },
    });
    expect(bedrockReasoningParams({ reasoning_effort: 'none' })).toEqual({});
    expect(() => bedrockReasoningParams({ reasoning_effort: 'max' })).toThrow(BadRequestError);
  });
});
