import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { useMock } from '../helpers.js';
import { API_KEY, chat, closeHttp, geminiTarget, http, options } from './gemini-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { city: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['c', 'f'] } },
      required: ['city'],
    },
  },
};

describe('Gemini (AI Studio) chat request', () => {
  it('posts to {api_base}/v1beta/models/{model}:generateContent with x-goog-api-key', async () => {
    await chat(geminiTarget(mock));
    const [request] = mock.requests;
    expect(request?.path).toBe('/g/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('sends system and developer messages as systemInstruction and sampling fields as generationConfig', async () => {
    await chat(geminiTarget(mock, 'g', { temperature: 0.2 }), {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'hi' },
      ],
      top_p: 0.9,
      max_tokens: 100,
      stop: 'END',
      n: 2,
      seed: 7,
    });
    expect(mock.requests[0]?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        candidateCount: 2,
        seed: 7,
      },
    });
  });

  it('lets the request override a svc_params request default', async () => {
    await chat(geminiTarget(mock, 'g', { temperature: 0.2 }), { temperature: 0.9 });
    expect(mock.requests[0]?.body).toMatchObject({ generationConfig: { temperature: 0.9 } });
  });

  it('declares tools as functionDeclarations without the schema keys Gemini rejects', async () => {
    await chat(geminiTarget(mock), { tools: [WEATHER_TOOL], tool_choice: 'auto' });
    expect(mock.requests[0]?.body).toMatchObject({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather for a city',
              parameters: {
                type: 'object',
                properties: {
                  city: { type: 'string' },
                  unit: { type: 'string', nullable: true, enum: ['c', 'f'] },
                },
                required: ['city'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    });
  });

  it.each([
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    ],
  ] as const)('maps tool_choice %j to functionCallingConfig', async (choice, config) => {
    await chat(geminiTarget(mock), { tools: [WEATHER_TOOL], tool_choice: choice });
    expect(mock.requests[0]?.body).toMatchObject({ toolConfig: { functionCallingConfig: config } });
  });

  it('sends response_format json_schema as responseMimeType and a cleaned responseSchema', async () => {
    await chat(geminiTarget(mock), {
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'r',
          schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'integer' } } },
        },
      },
    });
    expect(mock.requests[0]?.body).toMatchObject({
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'object', properties: { a: { type: 'integer' } } },
      },
    });
  });

  it('sends images: a data URI as inlineData, a URL as fileData', async () => {
    await chat(geminiTarget(mock), {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'compare' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'gs://bucket/cat.jpg' } },
          ],
        },
      ],
    });
    expect(mock.requests[0]?.body).toMatchObject({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'compare' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/cat.jpg' } },
          ],
        },
      ],
    });
  });

  it('sends earlier tool calls as functionCall parts and tool results as functionResponse parts of one turn', async () => {
    await chat(geminiTarget(mock), {
      messages: [
        { role: 'user', content: 'weather in Paris and London?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              provider_specific_fields: { thought_signature: 'sig-A' },
            },
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_time', arguments: '{"city":"London"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'call_1', content: '10:00' },
      ],
    });
    expect((mock.requests[0]!.body as { contents: unknown }).contents).toEqual([
      { role: 'user', parts: [{ text: 'weather in Paris and London?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-A' },
          { functionCall: { name: 'get_time', args: { city: 'London' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
          { functionResponse: { name: 'get_time', response: { content: '10:00' } } },
        ],
      },
    ]);
  });

  it('sends a text part’s signature back on the first text part of the model turn', async () => {
    await chat(geminiTarget(mock), {
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'hello',
          provider_specific_fields: { thought_signatures: ['sig-text'] },
        },
        { role: 'user', content: 'again' },
      ],
    });
    expect((mock.requests[0]!.body as { contents: unknown[] }).contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'hello', thoughtSignature: 'sig-text' }],
    });
  });

  it('takes its own earlier reasoning_content without sending it; refuses thinking_blocks unless drop_params', async () => {
    const messages = [
      { role: 'user' as const, content: 'hi' },
      {
        role: 'assistant' as const,
        content: 'hello',
        reasoning_content: 'I thought',
        thinking_blocks: [{ type: 'thinking' as const, thinking: 'I thought', signature: 'sig' }],
      },
      { role: 'user' as const, content: 'again' },
    ];
    await expect(chat(geminiTarget(mock), { messages })).rejects.toBeInstanceOf(BadRequestError);
    await invokeJson(http, geminiAdapter, geminiAdapter.chat, { model: 'g', messages }, geminiTarget(mock), {
      ...options,
      dropParams: true,
    });
    expect((mock.requests[0]!.body as { contents: unknown[] }).contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'hello' }],
    });
  });
});

describe('Gemini (AI Studio) chat response', () => {
  it('returns the contract envelope', async () => {
    mock.setBehavior('/g', { content: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const res = await chat(geminiTarget(mock));
    expect(res).toEqual({
      id: expect.any(String),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gemini-2.5-flash',
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

  it('returns function calls as tool_calls with call_<index> ids and JSON arguments', async () => {
    mock.setBehavior('/g', { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const res = await chat(geminiTarget(mock), { tools: [WEATHER_TOOL] });
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.content).toBeNull();
    expect(res.choices[0]?.message.tool_calls).toEqual([
      {
        index: 0,
        id: 'call_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });
});
