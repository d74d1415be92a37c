import { afterAll, describe, expect, it } from 'vitest';
import { APIConnectionError, ContentPolicyViolationError, ServiceUnavailableError } from '../../src/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixture,
  geminiTarget,
  sseFrames,
  stream,
  streamedReasoning,
  streamedText,
} from './gemini-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const replay = (name: string) =>
  mock.setBehavior('/g', {
    raw: { headers: { 'content-type': 'application/json' }, body: fixture('gemini', name) },
  });
const replayStream = (name: string) =>
  mock.setBehavior('/g', {
    raw: { headers: { 'content-type': 'text/event-stream' }, body: sseFrames(fixture('gemini', name)) },
  });

describe('Gemini fixtures: generateContent', () => {
  it('takes id from responseId, model from modelVersion and usage from usageMetadata', async () => {
    replay('generate-content-text.json');
    const res = await chat(geminiTarget(mock));
    expect(res).toMatchObject({
      id: 'x5lPaKWnHqGSxN8PzoPnsAQ',
      model: 'gemini-2.0-flash',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', tool_calls: null } }],
      usage: { prompt_tokens: 8, completion_tokens: 20, total_tokens: 28 },
    });
    expect(res.choices[0]?.message.content).toMatch(/^AI learns patterns/);
    expect(res.choices[0]?.message).not.toHaveProperty('reasoning_content');
    expect(res.choices[0]?.message).not.toHaveProperty('thinking_blocks');
  });

  it('returns thought parts as reasoning_content, never thinking_blocks', async () => {
    replay('generate-content-thinking-tool-call.json');
    const { message } = (await chat(geminiTarget(mock))).choices[0]!;
    expect(message.reasoning_content).toMatch(/^\*\*Checking the weather\*\*/);
    expect(message).not.toHaveProperty('thinking_blocks');
  });

  it('puts a functionCall part’s thoughtSignature on its tool call', async () => {
    replay('generate-content-thinking-tool-call.json');
    const res = await chat(geminiTarget(mock));
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.tool_calls).toEqual([
      {
        index: 0,
        id: 'call_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        provider_specific_fields: {
          thought_signature: 'CiQB0e2Kb7cMFLkCJcpb5qvDXvYZmBJ8Er0vC5C0uN1Eq0xX4ZQSQw==',
        },
      },
    ]);
  });

  it('counts thoughtsTokenCount as completion tokens and as reasoning_tokens', async () => {
    replay('generate-content-thinking-tool-call.json');
    expect((await chat(geminiTarget(mock))).usage).toEqual({
      prompt_tokens: 62,
      completion_tokens: 131,
      total_tokens: 193,
      completion_tokens_details: { reasoning_tokens: 113 },
    });
  });

  it('numbers parallel calls call_0, call_1 and keeps the signature on the first only', async () => {
    replay('generate-content-gemini3-parallel-calls.json');
    const calls = (await chat(geminiTarget(mock, 'g', {}, 'gemini-3-pro-preview'))).choices[0]?.message
      .tool_calls;
    expect(
      calls?.map((c) => [c.id, c.function.arguments, c.provider_specific_fields?.thought_signature]),
    ).toEqual([
      ['call_0', '{"location":"Paris"}', expect.stringMatching(/^EpEgCo4g/)],
      ['call_1', '{"location":"London"}', undefined],
    ]);
  });

  it('keeps a text part’s signature in message.provider_specific_fields.thought_signatures', async () => {
    replay('generate-content-text-signature.json');
    const { message } = (await chat(geminiTarget(mock))).choices[0]!;
    expect(message.content).toBe('There are **3** "r"s in strawberry.');
    expect(message.provider_specific_fields).toEqual({
      thought_signatures: ['EvsFCvgFAb4+9vtgYAdOcxMwBr9AOT6XX6Pz5SYAd9gXb/bmH4iLHlJ/3D3xudRmJGM9'],
    });
  });

  it('maps MAX_TOKENS to length', async () => {
    replay('generate-content-max-tokens.json');
    expect((await chat(geminiTarget(mock))).choices[0]?.finish_reason).toBe('length');
  });

  it('maps a SAFETY stop to content_filter with null content', async () => {
    replay('generate-content-safety.json');
    const choice = (await chat(geminiTarget(mock))).choices[0];
    expect(choice?.finish_reason).toBe('content_filter');
    expect(choice?.message.content).toBeNull();
  });

  it('throws ContentPolicyViolationError for a blocked prompt with no candidates', async () => {
    replay('prompt-blocked.json');
    const error = await chat(geminiTarget(mock)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentPolicyViolationError);
    expect((error as Error).message).toContain('PROHIBITED_CONTENT');
  });

  it('parses a batchEmbedContents answer into the OpenAI embedding list', () => {
    const target = geminiTarget(mock, 'g', {}, 'text-embedding-004');
    const res = geminiAdapter.embedding!.parse(
      JSON.parse(fixture('gemini', 'batch-embed-contents.json')),
      target,
      {
        model: 'e',
        input: ['a', 'b'],
      },
    );
    expect(res.data.map((d) => d.embedding)).toEqual([
      [0.0132, -0.0087, 0.0421, 0.0017],
      [-0.0213, 0.0308, 0.0056, -0.0144],
    ]);
  });
});

describe('Gemini fixtures: streamGenerateContent', () => {
  it('streams text, the trailing signature delta, the finish and the final usage', async () => {
    replayStream('stream-text.sse');
    const chunks = await stream(geminiTarget(mock));
    expect(streamedText(chunks)).toBe('Hello! How can I help you today?');
    expect(chunks.every((c) => c.id === 'tTCwacuEBMvnitYP06qsgQY')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.provider_specific_fields).filter(Boolean)).toEqual([
      { thought_signatures: ['AY89a18iOcFus5wr5bW5xN6zZ4aUiCyhgmg6HE2YjtYDV/dwZ5oZlZHeTmiUKv34qq0='] },
    ]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 6, completion_tokens: 11, total_tokens: 17 });
  });

  it('streams thoughts as reasoning_content and the call with its signature', async () => {
    replayStream('stream-thinking-tool-call.sse');
    const chunks = await stream(geminiTarget(mock));
    expect(streamedReasoning(chunks)).toBe(
      '**Checking the weather**\n\nThe user wants Paris weather. I will call get_weather.',
    );
    expect(chunks.some((c) => c.choices[0]?.delta.thinking_blocks)).toBe(false);
    const opening = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])[0];
    expect(opening).toEqual({
      index: 0,
      id: 'call_0',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
      provider_specific_fields: {
        thought_signature: 'CiQB0e2Kb7cMFLkCJcpb5qvDXvYZmBJ8Er0vC5C0uN1Eq0xX4ZQSQw==',
      },
    });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage?.completion_tokens_details).toEqual({ reasoning_tokens: 113 });
  });

  it('throws APIConnectionError for a transcript that never carries a finishReason', async () => {
    replayStream('stream-cut.sse');
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('throws ServiceUnavailableError for an UNAVAILABLE error object inside the stream', async () => {
    replayStream('stream-error.sse');
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('throws ContentPolicyViolationError for a prompt blocked in the first stream fragment', async () => {
    replayStream('stream-prompt-blocked.sse');
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(ContentPolicyViolationError);
  });
});
