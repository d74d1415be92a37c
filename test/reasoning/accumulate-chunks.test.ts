import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChunkDelta } from '../../src/index.js';
import { accumulateChunks } from '../../src/reasoning/index.js';

const chunk = (
  delta: ChunkDelta,
  finish: ChatCompletionChunk['choices'][0]['finish_reason'] = null,
): ChatCompletionChunk => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 100,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('accumulateChunks', () => {
  it('joins content and reasoning, keeps the last finish reason and the usage', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    const result = accumulateChunks([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Let me ' }),
      chunk({ reasoning_content: 'think.' }),
      chunk({ content: 'Hello ' }),
      chunk({ content: 'world' }),
      chunk({}, 'stop'),
      { ...chunk({}), choices: [], usage },
    ]);
    expect(result).toMatchObject({
      id: 'c1',
      object: 'chat.completion',
      created: 100,
      model: 'm',
      usage,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: 'Hello world',
            reasoning_content: 'Let me think.',
            tool_calls: null,
          },
        },
      ],
    });
    expect(result.choices[0]?.message.thinking_blocks).toBeUndefined();
  });

  it('rebuilds thinking blocks, closing each with its signature', () => {
    const result = accumulateChunks([
      chunk({ reasoning_content: 'a', thinking_blocks: [{ type: 'thinking', thinking: 'a' }] }),
      chunk({ reasoning_content: 'b', thinking_blocks: [{ type: 'thinking', thinking: 'b' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig1' }] }),
      chunk({ thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] }),
      chunk({ reasoning_content: 'c', thinking_blocks: [{ type: 'thinking', thinking: 'c' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig2' }] }),
    ]);
    expect(result.choices[0]?.message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'ab', signature: 'sig1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'thinking', thinking: 'c', signature: 'sig2' },
    ]);
    expect(result.choices[0]?.message.reasoning_content).toBe('abc');
  });

  it('assembles tool calls by index from their pieces', () => {
    const result = accumulateChunks([
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
      }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(result.choices[0]?.message).toMatchObject({
      content: null,
      tool_calls: [
        { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
        { index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } },
      ],
    });
    expect(result.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('concatenates streamed provider fields that are arrays', () => {
    const result = accumulateChunks([
      chunk({ provider_specific_fields: { reasoning_details: [{ type: 'reasoning.text', text: 'a' }] } }),
      chunk({ provider_specific_fields: { reasoning_details: [{ type: 'reasoning.text', text: 'b' }] } }),
    ]);
    expect(result.choices[0]?.message.provider_specific_fields).toEqual({
      reasoning_details: [
        { type: 'reasoning.text', text: 'a' },
        { type: 'reasoning.text', text: 'b' },
      ],
    });
  });

  it('concatenates 40,000 pieces of a provider field in linear time, leaving each chunk as it was', () => {
    const chunks = Array.from({ length: 40_000 }, (_, i) =>
      chunk({ provider_specific_fields: { reasoning_details: [{ type: 'reasoning.text', text: `${i}` }] } }),
    );
    const start = performance.now();
    const result = accumulateChunks(chunks);
    expect(performance.now() - start).toBeLessThan(2000); // a copy per chunk: 11 s
    const details = result.choices[0]?.message.provider_specific_fields?.reasoning_details as unknown[];
    expect(details).toHaveLength(40_000);
    expect(details[39_999]).toEqual({ type: 'reasoning.text', text: '39999' });
    expect(chunks[0]?.choices[0]?.delta.provider_specific_fields?.reasoning_details).toHaveLength(1);
  });

  it('reads a stream directly', async () => {
    async function* stream() {
      yield chunk({ content: 'x' });
      yield chunk({ content: 'y' }, 'stop');
    }
    expect((await accumulateChunks(stream())).choices[0]?.message.content).toBe('xy');
  });
});
