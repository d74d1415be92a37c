import { afterAll, describe, expect, it } from 'vitest';
import { bedrockAdapter, toChatCompletion } from '../../src/providers/bedrock/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { bedrockTarget, CLAUDE, fixture } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const claude = () => bedrockTarget(`${mock.url}/br`);
const nova = () => bedrockTarget(`${mock.url}/br`, 'amazon.nova-pro-v1:0');
const chat = (target: ProviderTarget, request: Record<string, unknown> = {}) =>
  invokeJson(
    http,
    bedrockAdapter,
    bedrockAdapter.chat,
    { model: 'group', messages: [{ role: 'user', content: 'hi' }], ...request },
    target,
    options,
  );

afterAll(async () => {
  await http.close();
});

describe('Bedrock Converse over HTTP', () => {
  it('posts the Converse body to {api_base}/model/{url-encoded id}/converse', async () => {
    await chat(claude(), {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      max_tokens: 200,
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    });
    const [request] = mock.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/br/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//);
    expect(request?.body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
      inferenceConfig: { maxTokens: 200 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'weather', inputSchema: { json: { type: 'object' } } } }],
        toolChoice: { auto: {} },
      },
    });
  });

  it('returns the contract envelope with the deployment’s model id', async () => {
    mock.setBehavior('/br', { content: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const res = await chat(claude());
    expect(res).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: CLAUDE,
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: 'Hi there', tool_calls: null, function_call: null },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      service_tier: null,
    });
  });

  it('returns toolUse blocks as tool_calls with JSON arguments and finish_reason tool_calls', async () => {
    mock.setBehavior('/br', {
      toolCalls: [{ id: 'tooluse_1', name: 'weather', arguments: { city: 'Paris' } }],
    });
    const res = await chat(claude());
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.content).toBeNull();
    expect(res.choices[0]?.message.tool_calls).toEqual([
      {
        index: 0,
        id: 'tooluse_1',
        type: 'function',
        function: { name: 'weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('returns Claude reasoning as reasoning_content, thinking_blocks and the native blocks', async () => {
    mock.setBehavior('/br', { content: '391', reasoning: '17*23 = 391', signature: 'c2lnbmF0dXJl' });
    const message = (await chat(claude())).choices[0]?.message;
    expect(message?.reasoning_content).toBe('17*23 = 391');
    expect(message?.thinking_blocks).toEqual([
      { type: 'thinking', thinking: '17*23 = 391', signature: 'c2lnbmF0dXJl' },
    ]);
    expect(message?.provider_specific_fields).toEqual({
      reasoningContentBlocks: [{ reasoningText: { text: '17*23 = 391', signature: 'c2lnbmF0dXJl' } }],
    });
  });

  it('returns redacted reasoning as a redacted_thinking block with its base64 data', async () => {
    mock.setBehavior('/br', { content: 'ok', redactedReasoning: 'ZW5jcnlwdGVk' });
    const message = (await chat(claude())).choices[0]?.message;
    expect(message?.thinking_blocks).toEqual([{ type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' }]);
    expect(message?.provider_specific_fields).toEqual({
      reasoningContentBlocks: [{ redactedContent: 'ZW5jcnlwdGVk' }],
    });
    expect(message).not.toHaveProperty('reasoning_content');
  });

  it('gives other models reasoning_content and native blocks but no thinking_blocks', async () => {
    mock.setBehavior('/br', { content: 'ok', reasoning: 'hmm' });
    const message = (await chat(nova())).choices[0]?.message;
    expect(message?.reasoning_content).toBe('hmm');
    expect(message).not.toHaveProperty('thinking_blocks');
    expect(message?.provider_specific_fields?.reasoningContentBlocks).toHaveLength(1);
  });
});

describe('Bedrock Converse fixtures', () => {
  const target = bedrockTarget('http://bedrock.test');

  it('parses a text answer', () => {
    const res = toChatCompletion(fixture('converse-text.json'), target);
    expect(res.choices[0]).toEqual({
      index: 0,
      finish_reason: 'stop',
      message: {
        role: 'assistant',
        content: 'The Cantor set is uncountable yet has Lebesgue measure zero.',
        tool_calls: null,
        function_call: null,
      },
    });
    expect(res.usage).toEqual({ prompt_tokens: 24, completion_tokens: 15, total_tokens: 39 });
  });

  it('parses a tool use answer', () => {
    const res = toChatCompletion(fixture('converse-tool-use.json'), target);
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.content).toBe("I'll look up the most popular song on that station.");
    expect(res.choices[0]?.message.tool_calls).toEqual([
      {
        index: 0,
        id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
        type: 'function',
        function: { name: 'top_song', arguments: '{"sign":"WZPZ"}' },
      },
    ]);
  });

  it('parses signed reasoning', () => {
    const json = fixture<{ output: { message: { content: Array<{ reasoningContent?: unknown }> } } }>(
      'converse-reasoning.json',
    );
    const native = json.output.message.content[0]?.reasoningContent as {
      reasoningText: { text: string; signature: string };
    };
    const message = toChatCompletion(json, target).choices[0]?.message;
    expect(message?.content).toBe('The sum of the first 10 odd numbers is **100**.');
    expect(message?.reasoning_content).toBe(native.reasoningText.text);
    expect(message?.thinking_blocks).toEqual([
      { type: 'thinking', thinking: native.reasoningText.text, signature: native.reasoningText.signature },
    ]);
    expect(message?.provider_specific_fields).toEqual({ reasoningContentBlocks: [native] });
  });

  it('parses redacted reasoning', () => {
    const message = toChatCompletion(fixture('converse-redacted-reasoning.json'), target).choices[0]?.message;
    expect(message?.thinking_blocks).toEqual([
      {
        type: 'redacted_thinking',
        data: 'RXZ3QkNrWUlCUmdDSWtBdHJiM0Q4c0lvcVl5dUJJU3VuVG9uTWpXSGhrRnlHcHpjMlBndjBlOW9xcWwwUmF2ZTlvWk1RYg==',
      },
    ]);
  });

  it('counts cached input in prompt_tokens and reports cache reads and writes', () => {
    const res = toChatCompletion(fixture('converse-cache-usage.json'), target);
    expect(res.usage).toEqual({
      prompt_tokens: 12 + 3072 + 496,
      completion_tokens: 16,
      total_tokens: 3596,
      prompt_tokens_details: { cached_tokens: 3072, cache_creation_tokens: 496 },
    });
    expect(res.choices[0]?.finish_reason).toBe('length');
    expect(res.service_tier).toBe('priority');
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
  ])('maps stopReason %s to finish_reason %s', (stopReason, finish) => {
    const json = { ...fixture('converse-text.json'), stopReason };
    expect(toChatCompletion(json, target).choices[0]?.finish_reason).toBe(finish);
  });
});
