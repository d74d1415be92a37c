import { afterAll, describe, expect, it } from 'vitest';
import { geminiReasoningParams } from '../../src/providers/gemini/index.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, geminiTarget, stream, streamedReasoning, streamedText } from './gemini-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const thinkingConfigOf = (i = 0) =>
  (mock.requests[i]!.body as { generationConfig?: { thinkingConfig?: unknown } }).generationConfig
    ?.thinkingConfig;

describe('geminiReasoningParams', () => {
  it.each([
    ['minimal', 1024],
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
  ] as const)('maps reasoning_effort %s to thinkingBudget %i on Gemini 2.5', (effort, budget) => {
    expect(geminiReasoningParams({ model: 'gemini-2.5-flash', reasoning_effort: effort })).toEqual({
      generationConfig: { thinkingConfig: { thinkingBudget: budget, includeThoughts: true } },
    });
  });

  it('maps reasoning_effort none to thinkingBudget 0 with includeThoughts false', () => {
    expect(geminiReasoningParams({ model: 'gemini-2.5-flash', reasoning_effort: 'none' })).toEqual({
      generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
    });
  });

  it.each([
    ['minimal', 'low'],
    ['low', 'low'],
    ['medium', 'high'],
    ['high', 'high'],
  ] as const)('maps reasoning_effort %s to thinkingLevel %s on Gemini 3', (effort, level) => {
    expect(geminiReasoningParams({ model: 'gemini-3-pro-preview', reasoning_effort: effort })).toEqual({
      generationConfig: { thinkingConfig: { thinkingLevel: level, includeThoughts: true } },
    });
  });

  it('never sends both thinkingBudget and thinkingLevel', () => {
    for (const model of ['gemini-2.5-pro', 'gemini-3-flash-preview', 'gemini-3.1-pro'])
      for (const reasoning_effort of ['none', 'minimal', 'low', 'medium', 'high'] as const) {
        const config = geminiReasoningParams({ model, reasoning_effort }).generationConfig?.thinkingConfig;
        expect(config && 'thinkingBudget' in config && 'thinkingLevel' in config).toBe(false);
      }
  });

  it('lets an explicit thinking budget win over reasoning_effort', () => {
    expect(
      geminiReasoningParams({
        model: 'gemini-2.5-flash',
        reasoning_effort: 'high',
        thinking: { type: 'enabled', budget_tokens: 3000 },
      }),
    ).toEqual({ generationConfig: { thinkingConfig: { thinkingBudget: 3000, includeThoughts: true } } });
  });

  it('asks for nothing when the request names no reasoning', () => {
    expect(geminiReasoningParams({ model: 'gemini-2.5-flash' })).toEqual({});
  });
});

describe('Gemini reasoning on the wire', () => {
  it('sends reasoning_effort as generationConfig.thinkingConfig.thinkingBudget (2.5)', async () => {
    await chat(geminiTarget(mock), { reasoning_effort: 'medium' });
    expect(thinkingConfigOf()).toEqual({ thinkingBudget: 2048, includeThoughts: true });
  });

  it('sends reasoning_effort as thinkingLevel without a budget (3)', async () => {
    await chat(geminiTarget(mock, 'g', {}, 'gemini-3-pro-preview'), { reasoning_effort: 'low' });
    expect(thinkingConfigOf()).toEqual({ thinkingLevel: 'low', includeThoughts: true });
  });

  it('sends reasoning_effort none as thinkingBudget 0 with includeThoughts false', async () => {
    await chat(geminiTarget(mock), { reasoning_effort: 'none' });
    expect(thinkingConfigOf()).toEqual({ thinkingBudget: 0, includeThoughts: false });
  });

  it('uses a thinking preset from svc_params when the request says nothing of reasoning', async () => {
    await chat(geminiTarget(mock, 'g', { thinking: { type: 'enabled', budget_tokens: 512 } }));
    expect(thinkingConfigOf()).toEqual({ thinkingBudget: 512, includeThoughts: true });
  });

  it('lets the request’s reasoning_effort override a thinking preset from svc_params', async () => {
    await chat(geminiTarget(mock, 'g', { thinking: { type: 'enabled', budget_tokens: 512 } }), {
      reasoning_effort: 'high',
    });
    expect(thinkingConfigOf()).toEqual({ thinkingBudget: 4096, includeThoughts: true });
  });
});

describe('Gemini thought parts', () => {
  it('answers thought parts only when the request set includeThoughts', async () => {
    mock.setBehavior('/g', { reasoning: 'Let me think.', content: 'Four.' });
    const without = await chat(geminiTarget(mock));
    expect(without.choices[0]?.message).not.toHaveProperty('reasoning_content');
    expect(without.usage.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
    const withThoughts = await chat(geminiTarget(mock), { reasoning_effort: 'low' });
    expect(withThoughts.choices[0]?.message).toMatchObject({
      reasoning_content: 'Let me think.',
      content: 'Four.',
    });
    expect(withThoughts.choices[0]?.message).not.toHaveProperty('thinking_blocks');
  });

  it('streams thought parts as reasoning_content deltas before the text', async () => {
    mock.setBehavior('/g', { reasoning: 'Two and two make four.', content: 'Four.' });
    const chunks = await stream(geminiTarget(mock), { reasoning_effort: 'high' });
    expect(streamedReasoning(chunks)).toBe('Two and two make four.');
    expect(streamedText(chunks)).toBe('Four.');
    const firstText = chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = chunks.findLastIndex((c) => c.choices[0]?.delta.reasoning_content);
    expect(lastReasoning).toBeLessThan(firstText);
    expect(chunks.some((c) => c.choices[0]?.delta.thinking_blocks)).toBe(false);
  });
});
