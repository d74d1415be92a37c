import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatCompletionChunk, ChatCompletionRequest } from '@svc/router';
import { RateLimitError } from '@svc/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicErrorBody, anthropicErrorEvent } from '../../src/anthropic/anthropic-error.js';
import { chunksToAnthropicEvents } from '../../src/anthropic/to-anthropic-events.js';
import { chatCompletionToAnthropic } from '../../src/anthropic/to-anthropic-message.js';
import { anthropicToChatRequest } from '../../src/anthropic/to-chat-request.js';
import { sseEvent } from '../../src/http/sse.js';
import { chunk, completion, streamOf, THINK_TEXT_TOOL } from './chunks.js';

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const piece of req) text += piece;
  return JSON.parse(text);
}

/** A reasoning model without signed thinking (DeepSeek-type): reasoning text, then a tool call. */
const REASONING_THEN_TOOL: readonly ChatCompletionChunk[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning_content: 'Use the tool.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
    ],
  }),
  chunk({}, 'tool_calls'),
];

/** The chunks each model name streams: `cut` fails after its first pieces, as an upstream cut would. */
async function* cannedStream(model: string): AsyncGenerator<ChatCompletionChunk> {
  if (model === 'reasoner') yield* streamOf(REASONING_THEN_TOOL);
  else if (model === 'cut') {
    yield* streamOf(THINK_TEXT_TOOL.slice(0, 3));
    throw new RateLimitError('Upstream overloaded mid-answer.');
  } else yield* streamOf(THINK_TEXT_TOOL);
}

/**
 * A stand-in for the proxy route: translates the SDK's request, records it, and answers the canned
 * completion (or its chunk stream) translated back; `rate-limited` fails like the router would.
 */
function handler(seen: ChatCompletionRequest[]) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const request = anthropicToChatRequest(await readJson(req));
    seen.push(request);
    if (request.model === 'rate-limited') {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify(anthropicErrorBody(new RateLimitError('Slow down.'))));
    } else if (request.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      try {
        for await (const { event, data } of chunksToAnthropicEvents(cannedStream(request.model), {
          model: request.model,
        })) {
          res.write(sseEvent(event, data));
        }
      } catch (error) {
        const { event, data } = anthropicErrorEvent(error);
        res.write(sseEvent(event, data));
      }
      res.end();
    } else {
      const answer = completion(
        {
          content: 'Four.',
          reasoning_content: 'Add.',
          thinking_blocks: [{ type: 'thinking', thinking: 'Add.', signature: 'sig-9' }],
        },
        'stop',
      );
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chatCompletionToAnthropic(answer, request.model)));
    }
  };
}

describe('the Anthropic SDK against the translated answers', () => {
  let server: Server;
  let client: Anthropic;
  const seen: ChatCompletionRequest[] = [];
  beforeAll(async () => {
    server = createServer(handler(seen));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new Anthropic({ apiKey: 'x', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('accumulates a streamed thinking block with its signature, the text and the tool input', async () => {
    const message = await client.messages
      .stream({
        model: 'claude',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' },
      { type: 'text', text: 'Checking the weather.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 34 });
  });

  it("sends a request the translation accepts, the stream's included", async () => {
    seen.length = 0;
    await client.messages
      .stream({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(seen[0]).toMatchObject({
      model: 'claude',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('sends back the previous turn, thinking signature and tool result included', async () => {
    seen.length = 0;
    const first = await client.messages
      .stream({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'Weather in Paris?' }] })
      .finalMessage();
    await client.messages.create({
      model: 'claude',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' }] },
      ],
    });
    expect(seen[1]?.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking the weather.',
        reasoning_content: 'Let me think.',
        thinking_blocks: [{ type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' }],
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
  });

  it('reads a whole message with its thinking block', async () => {
    const message = await client.messages.create({
      model: 'claude',
      max_tokens: 64,
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Add.', signature: 'sig-9' },
      { type: 'text', text: 'Four.' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('throws the SDK error class of the status, with our message', async () => {
    const error = await client.messages
      .create({ model: 'rate-limited', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Slow down.', code: 'rate_limit' },
    });
  });
  it("throws a stream's in-band error event as the SDK's error, with our type, message and code", async () => {
    const error = await client.messages
      .stream({ model: 'cut', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({
      type: 'rate_limit_error',
      error: { error: { message: 'Upstream overloaded mid-answer.', code: 'rate_limit' } },
    });
  });

  it('sends unsigned thinking from a reasoning model back as reasoning_content, not thinking_blocks', async () => {
    seen.length = 0;
    const first = await client.messages
      .stream({ model: 'reasoner', max_tokens: 64, messages: [{ role: 'user', content: 'Weather?' }] })
      .finalMessage();
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: 'Use the tool.', signature: '' });
    await client.messages.create({
      model: 'reasoner',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: 'sunny' }] },
      ],
    });
    expect(seen[1]?.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Use the tool.',
      tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    });
  });

  it('sends adaptive thinking through', async () => {
    seen.length = 0;
    await client.messages.create({
      model: 'claude',
      max_tokens: 64,
      thinking: { type: 'adaptive' },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(seen[0]?.thinking).toEqual({ type: 'adaptive' });
  });
});
