import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response, ResponseStreamEvent as SdkEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import {
  decodeReasoningState,
  parseResponsesRequest,
  type ResponseStreamEvent,
  ResponsesStreamWriter,
  responseShell,
} from '../../src/responses/index.js';
import type { ChatCompletionChunk } from '../../src/types/chat.js';
import { delta, usage } from './chunks.js';

const shell = () => responseShell(parseResponsesRequest({ model: 'gpt-4o', input: 'hi' }), { id: 'resp_1' });

/** Every event of a stream of these chunks, and the writer. */
function run(chunks: readonly ChatCompletionChunk[]): {
  events: ResponseStreamEvent[];
  writer: ResponsesStreamWriter;
} {
  const writer = new ResponsesStreamWriter(shell());
  const events = chunks.flatMap((chunk) => writer.push(chunk));
  events.push(...writer.end());
  return { events, writer };
}

/** What the openai SDK's accumulator makes of the events (as JSON, the way they travel). */
function sdkSnapshot(events: readonly ResponseStreamEvent[]): Response {
  let snapshot: Response | undefined;
  for (const event of events)
    snapshot = accumulateResponse(JSON.parse(JSON.stringify(event)) as SdkEvent, snapshot);
  return snapshot!;
}

const TEXT = [
  delta({ role: 'assistant', content: '' }),
  delta({ content: 'Hel' }),
  delta({ content: 'lo.' }),
  delta({}, 'stop'),
  usage(5, 2),
];

const THINK_THEN_CALLS = [
  delta({ reasoning_content: 'Let me ', thinking_blocks: [{ type: 'thinking', thinking: 'Let me ' }] }),
  delta({ reasoning_content: 'see.', thinking_blocks: [{ type: 'thinking', thinking: 'see.' }] }),
  delta({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-9' }] }),
  delta({
    tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
  }),
  delta({
    tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"b"' } }],
  }),
  // a late piece of the first call, after the second started
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
  delta({ tool_calls: [{ index: 1, function: { arguments: ':2}' } }] }),
  delta({}, 'tool_calls'),
  usage(20, 9, 4),
];

describe('ResponsesStreamWriter', () => {
  it('streams text as the Responses events, numbered from 0', () => {
    const { events } = run(TEXT);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[4]).toMatchObject({
      item_id: expect.stringMatching(/^msg_/),
      output_index: 0,
      content_index: 0,
      delta: 'Hel',
    });
    expect(events[6]).toMatchObject({ text: 'Hello.' });
  });

  it('ends with the whole response and its usage, which the SDK accumulates to the same output', () => {
    const { events, writer } = run(TEXT);
    const final = writer.response;
    expect(final).toMatchObject({
      id: 'resp_1',
      status: 'completed',
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    });
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: final });
    const snapshot = sdkSnapshot(events);
    expect(snapshot.output_text).toBe('Hello.');
    expect(snapshot.output).toEqual(final.output);
  });

  it('streams reasoning as summary text, its signature kept in encrypted_content, then each call', () => {
    const { events, writer } = run(THINK_THEN_CALLS);
    expect(
      events.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta),
    ).toEqual(['Let me ', 'see.']);
    const [reasoning, first, second] = writer.response.output;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Let me see.' }],
    });
    expect(decodeReasoningState((reasoning as { encrypted_content?: string }).encrypted_content)).toEqual([
      { type: 'thinking', thinking: 'Let me see.', signature: 'sig-9' },
    ]);
    expect(first).toMatchObject({
      type: 'function_call',
      call_id: 'call_a',
      name: 'f',
      arguments: '{"a":1}',
      status: 'completed',
    });
    expect(second).toMatchObject({
      type: 'function_call',
      call_id: 'call_b',
      name: 'g',
      arguments: '{"b":2}',
    });
    expect(writer.response.usage?.output_tokens_details).toEqual({ reasoning_tokens: 4 });
    expect(sdkSnapshot(events).output).toEqual(writer.response.output);
  });

  it('sends each call its arguments by index and closes the calls at the end, in order', () => {
    const { events } = run(THINK_THEN_CALLS);
    const args = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(args.map((e) => [e.output_index, e.delta])).toEqual([
      [2, '{"b"'],
      [1, '{"a":1}'],
      [2, ':2}'],
    ]);
    const done = events.filter((e) => e.type === 'response.function_call_arguments.done');
    expect(done.map((e) => [e.output_index, e.arguments, e.name])).toEqual([
      [1, '{"a":1}', 'f'],
      [2, '{"b":2}', 'g'],
    ]);
  });

  it('ends an answer cut by the output limit with response.incomplete', () => {
    const { events, writer } = run([delta({ content: 'Once' }), delta({}, 'length')]);
    expect(events.at(-1)?.type).toBe('response.incomplete');
    expect(writer.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(writer.response.output[0]).toMatchObject({ status: 'incomplete' });
  });

  it('ends a failed stream with response.failed, the error and the output so far', () => {
    const writer = new ResponsesStreamWriter(shell());
    const events = [delta({ content: 'Half an ' })].flatMap((chunk) => writer.push(chunk));
    events.push(...writer.fail({ code: 'api_connection', message: 'The upstream closed the stream.' }));
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      sequence_number: events.length - 1,
      response: {
        status: 'failed',
        error: { code: 'api_connection', message: 'The upstream closed the stream.' },
        output: [
          { type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'Half an ' }] },
        ],
      },
    });
  });

  it('answers an empty stream with the opening events and an empty completed response', () => {
    const { events } = run([]);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.completed',
    ]);
  });

  it('opens a new item when reasoning follows text', () => {
    const { writer } = run([
      delta({ content: 'a' }),
      delta({ reasoning_content: 'b' }),
      delta({ content: 'c' }),
    ]);
    expect(writer.response.output.map((item) => item.type)).toEqual(['message', 'reasoning', 'message']);
  });
});
