import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { accumulateChunks } from '../../src/reasoning/index.js';
import { useMock } from '../helpers.js';

const mock = useMock();

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** An Anthropic event stream of one text block: `startUsage` in message_start, `deltaUsage` in message_delta. */
function textStream(text: string, startUsage: object, deltaUsage: object): string[] {
  return [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        usage: startUsage,
      },
    }),
    sse('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    sse('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text },
    }),
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: deltaUsage }),
    sse('message_stop', { type: 'message_stop' }),
  ];
}

/** The mock's answer: an event stream of these frames. */
const sseAnswer = (body: string[]) => ({ raw: { headers: { 'content-type': 'text/event-stream' }, body } });

/** The mock's answer: one Anthropic message of `text`, with `usage`. */
const message = (text: string, usage: object) => ({
  raw: {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage,
    }),
  },
});

describe('Anthropic stream usage', () => {
  it('keeps message_start’s input counts when message_delta sends them as null', async () => {
    mock.setBehavior(
      '/nulls',
      sseAnswer(
        textStream(
          'Hi',
          { input_tokens: 100, cache_read_input_tokens: 50, output_tokens: 1 },
          { input_tokens: null, cache_read_input_tokens: null, output_tokens: 15 },
        ),
      ),
    );
    const router = new Router([
      {
        model_name: 'c',
        svc_params: { model: 'anthropic/claude-sonnet-4-5', api_base: `${mock.url}/nulls`, api_key: 'k' },
      },
    ]);
    const result = await accumulateChunks(
      await router.acompletion({ model: 'c', messages: [{ role: 'user', content: 'x' }], stream: true }),
    );
    await router.close();
    expect(result.usage.prompt_tokens).toBe(150);
    expect(result.usage.completion_tokens).toBe(15);
    expect(result.choices[0]?.message.content).toBe('Hi');
  });

  it('prices the web searches Anthropic ran, streamed (message_delta) or not, at the catalog price per search', async () => {
    const searches = { web_search_requests: 3 };
    mock.setBehavior(
      '/searched-stream',
      sseAnswer(
        textStream(
          'Found.',
          { input_tokens: 1000, output_tokens: 1 },
          { output_tokens: 100, server_tool_use: searches },
        ),
      ),
    );
    mock.setBehavior(
      '/searched-plain',
      message('Found.', { input_tokens: 1000, output_tokens: 100, server_tool_use: searches }),
    );
    const router = new Router(
      ['searched-stream', 'searched-plain'].map((path) => ({
        model_name: path,
        svc_params: { model: 'anthropic/claude-sonnet-4-5', api_base: `${mock.url}/${path}`, api_key: 'k' },
      })),
    );
    const messages = [{ role: 'user' as const, content: 'search' }];
    const stream = await router.acompletion({ model: 'searched-stream', messages, stream: true });
    const streamed = await accumulateChunks(stream);
    const plain = await router.acompletion({ model: 'searched-plain', messages });
    await router.close();
    // Sonnet 4.5: $3 and $15 a million tokens, $10 a thousand searches
    const expected = 1000 * 3e-6 + 100 * 15e-6 + 3 * 0.01;
    expect(streamed.usage.server_tool_use).toEqual({ web_search_requests: 3 });
    expect(stream._hidden_params.response_cost).toBeCloseTo(expected, 10);
    expect(plain.usage.server_tool_use).toEqual({ web_search_requests: 3 });
    expect(plain._hidden_params.response_cost).toBeCloseTo(expected, 10);
  });

  it('prices searches on a deployment priced by its own svc_params or by model_cost_map at the catalog price per search', async () => {
    mock.setBehavior(
      '/own-prices',
      message('Found.', {
        input_tokens: 1000,
        output_tokens: 100,
        server_tool_use: { web_search_requests: 2 },
      }),
    );
    const costMap = join(mkdtempSync(join(tmpdir(), 'svc-search-')), 'prices.json');
    const hand = { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 };
    writeFileSync(costMap, JSON.stringify({ 'anthropic/claude-sonnet-4-5': hand }));
    const deployment = (name: string, own = {}) => ({
      model_name: name,
      svc_params: {
        model: 'anthropic/claude-sonnet-4-5',
        api_base: `${mock.url}/own-prices`,
        api_key: 'k',
        ...own,
      },
    });
    const router = new Router([deployment('own', hand), deployment('mapped')], { model_cost_map: costMap });
    const messages = [{ role: 'user' as const, content: 'search' }];
    const costs = [
      (await router.acompletion({ model: 'own', messages }))._hidden_params.response_cost,
      (await router.acompletion({ model: 'mapped', messages }))._hidden_params.response_cost,
    ];
    await router.close();
    const expected = 1000 * 1e-6 + 100 * 2e-6 + 2 * 0.01;
    expect(costs[0]).toBeCloseTo(expected, 10);
    expect(costs[1]).toBeCloseTo(expected, 10);
  });
});
