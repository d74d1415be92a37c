import { describe, expect, it } from 'vitest';
import { catalogCost, usageReader } from '../../src/index.js';

const TOKENS = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

describe('web searches at the catalog price per search', () => {
  it("adds an Anthropic model's searches at $10 a thousand to its tokens", () => {
    const tokens = catalogCost('anthropic', 'claude-sonnet-4-5', TOKENS).cost;
    const searched = catalogCost('anthropic', 'claude-sonnet-4-5', {
      ...TOKENS,
      server_tool_use: { web_search_requests: 4 },
    }).cost;
    expect(searched - tokens).toBeCloseTo(0.04, 10);
  });

  it('adds nothing on a model the catalog has no search price for', () => {
    const tokens = catalogCost('gemini', 'gemini-2.5-flash', TOKENS).cost;
    const searched = catalogCost('gemini', 'gemini-2.5-flash', {
      ...TOKENS,
      server_tool_use: { web_search_requests: 4 },
    }).cost;
    expect(searched).toBe(tokens);
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
