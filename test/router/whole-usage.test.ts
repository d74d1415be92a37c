import { describe, expect, it } from 'vitest';
import { wholeUsage } from '../../src/router/stream-resume/whole-usage.js';
import type { Deployment } from '../../src/types/index.js';

// only its prices are read: a dollar a million tokens each way, a cent a search
const deployment = {
  cost: { prices: { input: 1e-6, output: 1e-6, cacheRead: 1e-6, cacheWrite: 1e-6, webSearch: 0.01 } },
} as unknown as Deployment;
const request = { model: 'm', messages: [{ role: 'user' as const, content: 'search' }] };

describe('wholeUsage', () => {
  it("sums the parts' web searches with their tokens, each part priced at its deployment", async () => {
    const part = (searches: number) => ({
      deployment,
      request,
      text: 'x',
      usage: {
        prompt_tokens: 100,
        completion_tokens: 10,
        total_tokens: 110,
        server_tool_use: { web_search_requests: searches },
      },
    });
    const { usage, cost } = await wholeUsage([part(2), part(1)]);
    expect(usage).toEqual({
      prompt_tokens: 200,
      completion_tokens: 20,
      total_tokens: 220,
      server_tool_use: { web_search_requests: 3 },
    });
    expect(cost).toBeCloseTo(220e-6 + 0.03, 12);
  });
});
