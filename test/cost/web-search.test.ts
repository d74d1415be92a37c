import { describe, expect, it } from 'vitest';
import { catalogCost, usageReader } from '../../src/index.js';

const TOKENS = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

/** What `searches` web searches add to a call's cost on the catalog's `provider`/`model`. */
function searchesCost(provider: string, model: string, searches: number): number {
  const searched = { ...TOKENS, server_tool_use: { web_search_requests: searches } };
  return catalogCost(provider, model, searched).cost - catalogCost(provider, model, TOKENS).cost;
}

describe('web searches at the catalog price per search', () => {
  it("adds an Anthropic model's searches at $10 a thousand to its tokens", () => {
    expect(searchesCost('anthropic', 'claude-sonnet-4-5', 4)).toBeCloseTo(0.04, 10);
  });

  it("adds Anthropic's price per search to Claude on Vertex AI, which bills Claude's searches at it", () => {
    expect(catalogCost('vertex_ai', 'claude-sonnet-4-5@20250929', TOKENS).priced).toBe(true);
    expect(searchesCost('vertex_ai', 'claude-sonnet-4-5@20250929', 4)).toBeCloseTo(0.04, 10);
  });

  it('adds nothing on a model the catalog has no search price for', () => {
    expect(catalogCost('gemini', 'gemini-2.5-flash', TOKENS).priced).toBe(true);
    expect(searchesCost('gemini', 'gemini-2.5-flash', 4)).toBe(0);
  });
});

describe('usageReader and web searches', () => {
  it("counts a Responses answer's web_search_call items, from its response.completed event", () => {
    const reader = usageReader('openai');
    reader.read({
      type: 'response.completed',
      response: {
        model: 'gpt-4o',
        output: [
          { type: 'web_search_call', id: 'ws_1', status: 'completed' },
          { type: 'web_search_call', id: 'ws_2', status: 'completed' },
          { type: 'message', id: 'msg_1', role: 'assistant', content: [] },
        ],
        usage: { input_tokens: 1000, output_tokens: 100, total_tokens: 1100 },
      },
    });
    expect(reader.result().usage?.server_tool_use).toEqual({ web_search_requests: 2 });
  });

  it("keeps message_start's input tokens when a message_delta sends them as null", () => {
    const reader = usageReader('anthropic');
    reader.read({
      type: 'message_start',
      message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 10 } },
    });
    reader.read({ type: 'message_delta', usage: { input_tokens: null, output_tokens: 5 } });
    expect(reader.result().usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
  });

  it('counts no search in a chat completion body, and each search once over a Responses stream', () => {
    const chat = usageReader('openai');
    chat.read({ model: 'gpt-4o', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    expect(chat.result().usage?.server_tool_use).toBeUndefined();
    const stream = usageReader('openai');
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed' };
    stream.read({ type: 'response.output_item.done', output_index: 0, item: search });
    const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
    const completed = { type: 'response.completed', response: { model: 'gpt-4o', output: [search], usage } };
    stream.read(completed);
    stream.read(completed);
    expect(stream.result().usage?.server_tool_use).toEqual({ web_search_requests: 1 });
  });

  it("reads an Anthropic answer's searches from its cumulative message_delta", () => {
    const reader = usageReader('anthropic');
    reader.read({
      type: 'message_start',
      message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 10 } },
    });
    reader.read({
      type: 'message_delta',
      usage: { output_tokens: 5, server_tool_use: { web_search_requests: 2 } },
    });
    expect(reader.result().usage?.server_tool_use).toEqual({ web_search_requests: 2 });
  });
});
