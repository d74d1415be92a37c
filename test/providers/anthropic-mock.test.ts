import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src/providers/shared/sse.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const post = (path: string, body: object) =>
  fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
async function events(
  res: Response,
): Promise<Array<{ event: string | undefined; data: Record<string, unknown> }>> {
  const out = [];
  for await (const e of parseSse(res.body as AsyncIterable<Uint8Array>))
    out.push({ event: e.event, data: JSON.parse(e.data) });
  return out;
}
const MESSAGES = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

describe('Mock provider: Anthropic format', () => {
  it('answers a Messages request with thinking (signed), redacted thinking, text and tool_use, in that order', async () => {
    mock.setBehavior('/m', {
      reasoning: 'think',
      redactedReasoning: 'opaque',
      content: 'answer',
      toolCalls: [{ id: 'toolu_1', name: 'f', arguments: '{"a":1}' }],
      usage: { prompt_tokens: 4, completion_tokens: 6 },
    });
    const res = await post('/m/v1/messages', MESSAGES);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 'think', signature: expect.any(String) },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'answer' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 4,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 6,
        service_tier: 'standard',
      },
    });
  });

  it('streams named events with pings, ending with message_stop', async () => {
    mock.setBehavior('/m', { content: 'one two three four' });
    const list = await events(await post('/m/v1/messages', { ...MESSAGES, stream: true }));
    expect(list.every((e) => e.event === e.data.type)).toBe(true);
    const names = list.map((e) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names.at(-1)).toBe('message_stop');
    expect(names.at(-2)).toBe('message_delta');
    expect(names.filter((n) => n === 'ping').length).toBeGreaterThanOrEqual(2);
    // a ping between two deltas of the same block
    const firstPing = names.indexOf('ping', names.indexOf('content_block_start'));
    expect(names[firstPing - 1]).toBe('content_block_delta');
  });

  it('writes an error event for stream.errorAfter', async () => {
    mock.setBehavior('/m', { stream: { errorAfter: 1 } });
    const list = await events(await post('/m/v1/messages', { ...MESSAGES, stream: true }));
    expect(list.at(-1)).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
  });

  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
  ])('answers status %d with the Anthropic error body of type %s', async (status, type) => {
    mock.setBehavior('/m', { status });
    const res = await post('/m/v1/messages', MESSAGES);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type, message: expect.any(String) },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('serves Claude on Vertex AI paths, streaming on :streamRawPredict, with the model from the path', async () => {
    const base = '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-v';
    const plain = await post(`${base}:rawPredict`, {
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 9,
      messages: [],
    });
    expect(await plain.json()).toMatchObject({ type: 'message', model: 'claude-v' });
    const streamed = await events(await post(`${base}:streamRawPredict`, { max_tokens: 9, messages: [] }));
    expect(streamed.at(-1)?.event).toBe('message_stop');
  });
});
