import type { ChatCompletionChunk } from '@svc/router';
import { describe, expect, it } from 'vitest';
import {
  type AnthropicStreamEvent,
  type AnthropicStreamOptions,
  chunksToAnthropicEvents,
} from '../../src/anthropic/to-anthropic-events.js';
import { chunk, streamOf, THINK_TEXT_TOOL, usageChunk } from './chunks.js';

async function eventsOf(
  chunks: readonly ChatCompletionChunk[],
  options: AnthropicStreamOptions = { model: 'claude' },
): Promise<AnthropicStreamEvent[]> {
  const out: AnthropicStreamEvent[] = [];
  for await (const e of chunksToAnthropicEvents(streamOf(chunks), options)) out.push(e);
  return out;
}

/** Each event's name with what tells it apart: `content_block_delta 0 text_delta Hi`. */
function summary(events: readonly AnthropicStreamEvent[]): string[] {
  return events.map(({ event, data }) => {
    const d = data as Record<string, Record<string, unknown> | number | string>;
    if (event === 'content_block_start')
      return `${event} ${d.index} ${(d.content_block as Record<string, unknown>).type}`;
    if (event === 'content_block_stop') return `${event} ${d.index}`;
    if (event === 'content_block_delta') {
      const delta = d.delta as Record<string, string>;
      const value = delta.text ?? delta.thinking ?? delta.signature ?? delta.partial_json;
      return `${event} ${d.index} ${delta.type} ${value}`;
    }
    return event;
  });
}

/** Thinking `A` signed `s1`, then thinking `B` signed `s2`, as two blocks. */
const TWO_SIGNED_THINKING_BLOCKS = [
  'content_block_start 0 thinking',
  'content_block_delta 0 thinking_delta A',
  'content_block_delta 0 signature_delta s1',
  'content_block_stop 0',
  'content_block_start 1 thinking',
  'content_block_delta 1 thinking_delta B',
  'content_block_delta 1 signature_delta s2',
  'content_block_stop 1',
];

describe('chunksToAnthropicEvents', () => {
  it('streams a text answer as one text block', async () => {
    const events = await eventsOf([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
    ]);
    expect(summary(events)).toEqual([
      'message_start',
      'content_block_start 0 text',
      'content_block_delta 0 text_delta Hel',
      'content_block_delta 0 text_delta lo',
      'content_block_stop 0',
      'message_delta',
      'message_stop',
    ]);
  });

  it('starts with the message shell the SDK accumulates into', async () => {
    const [start] = await eventsOf([chunk({ content: 'x' })]);
    expect(start).toEqual({
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_chatcmpl-1',
          type: 'message',
          role: 'assistant',
          model: 'claude',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
    });
  });

  it('streams thinking, a later signature, text and a tool call in pieces as blocks in order', async () => {
    expect(summary(await eventsOf(THINK_TEXT_TOOL))).toEqual([
      'message_start',
      'content_block_start 0 thinking',
      'content_block_delta 0 thinking_delta Let me ',
      'content_block_delta 0 thinking_delta think.',
      'content_block_delta 0 signature_delta sig-123',
      'content_block_stop 0',
      'content_block_start 1 text',
      'content_block_delta 1 text_delta Checking ',
      'content_block_delta 1 text_delta the weather.',
      'content_block_stop 1',
      'content_block_start 2 tool_use',
      'content_block_delta 2 input_json_delta {"city":',
      'content_block_delta 2 input_json_delta "Paris"}',
      'content_block_stop 2',
      'message_delta',
      'message_stop',
    ]);
  });

  it('opens blocks empty, as Anthropic does', async () => {
    const events = await eventsOf(THINK_TEXT_TOOL);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
    expect(starts).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} },
    ]);
  });

  it('sends the stop reason and the usage of a trailing usage chunk in message_delta', async () => {
    const events = await eventsOf(THINK_TEXT_TOOL);
    expect(events.at(-2)).toEqual({
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 12, output_tokens: 34 },
      },
    });
    expect(events.at(-1)).toEqual({ event: 'message_stop', data: { type: 'message_stop' } });
  });

  it('streams reasoning without thinking blocks as an unsigned thinking block', async () => {
    const events = await eventsOf([
      chunk({ reasoning_content: 'Hmm.' }),
      chunk({ content: 'Yes.' }),
      chunk({}, 'stop'),
    ]);
    expect(summary(events).slice(1, 6)).toEqual([
      'content_block_start 0 thinking',
      'content_block_delta 0 thinking_delta Hmm.',
      'content_block_stop 0',
      'content_block_start 1 text',
      'content_block_delta 1 text_delta Yes.',
    ]);
  });

  it('starts a new thinking block when thinking follows a signed one', async () => {
    const events = await eventsOf([
      chunk({ reasoning_content: 'A', thinking_blocks: [{ type: 'thinking', thinking: 'A' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 's1' }] }),
      chunk({ reasoning_content: 'B', thinking_blocks: [{ type: 'thinking', thinking: 'B' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 's2' }] }),
    ]);
    expect(summary(events).slice(1, 9)).toEqual(TWO_SIGNED_THINKING_BLOCKS);
  });

  it('reads whole signed thinking blocks that come in one delta', async () => {
    const events = await eventsOf([
      chunk({
        reasoning_content: 'AB',
        thinking_blocks: [
          { type: 'thinking', thinking: 'A', signature: 's1' },
          { type: 'thinking', thinking: 'B', signature: 's2' },
        ],
      }),
      chunk({ content: 'ok' }, 'stop'),
    ]);
    expect(summary(events).slice(1, 9)).toEqual(TWO_SIGNED_THINKING_BLOCKS);
  });

  it('puts the input tokens known before the answer in message_start', async () => {
    const [start] = await eventsOf([chunk({ content: 'x' })], { model: 'claude', inputTokens: 42 });
    expect(start?.data).toMatchObject({ message: { usage: { input_tokens: 42, output_tokens: 0 } } });
  });

  it('reports a stop sequence the provider said it matched', async () => {
    const events = await eventsOf([
      chunk({ content: '1, 2' }),
      chunk({ provider_specific_fields: { stop_sequence: ', 3' } }, 'stop'),
    ]);
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'stop_sequence', stop_sequence: ', 3' },
    });
  });

  it('sends a redacted thinking block whole', async () => {
    const events = await eventsOf([
      chunk({ thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] }),
    ]);
    expect(events[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'redacted_thinking', data: 'opaque' },
    });
    expect(summary(events)[2]).toBe('content_block_stop 0');
  });

  it('gives each of several tool calls its own block', async () => {
    const events = await eventsOf([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"x":1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(summary(events).slice(1, 7)).toEqual([
      'content_block_start 0 tool_use',
      'content_block_delta 0 input_json_delta {}',
      'content_block_stop 0',
      'content_block_start 1 tool_use',
      'content_block_delta 1 input_json_delta {"x":1}',
      'content_block_stop 1',
    ]);
  });

  it('answers an empty stream with an empty message', async () => {
    expect(summary(await eventsOf([]))).toEqual(['message_start', 'message_delta', 'message_stop']);
  });

  it('reports max_tokens when the answer was cut at its length', async () => {
    const events = await eventsOf([chunk({ content: 'x' }, 'length'), usageChunk(1, 2)]);
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'max_tokens' },
      usage: { output_tokens: 2 },
    });
  });

  it('passes an error of the input on to the caller', async () => {
    async function* failing(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk({ content: 'x' });
      throw new Error('upstream cut');
    }
    const seen: string[] = [];
    const run = async () => {
      for await (const e of chunksToAnthropicEvents(failing(), { model: 'm' })) seen.push(e.event);
    };
    await expect(run()).rejects.toThrow('upstream cut');
    expect(seen).not.toContain('message_stop');
  });
});
