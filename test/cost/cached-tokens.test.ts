import { describe, expect, it } from 'vitest';
import { type ChatCompletionStream, type DeploymentConfig, Router } from '../../src/index.js';
import type { MockBehavior } from '../../src/testing/index.js';
import { USER, useMock } from '../helpers.js';

// List prices (dollars per million tokens) of the catalog in package-lock (genai-prices 0.1.8), as the
// providers' pricing pages give them: input, cache read, cache write (5 minutes), output.
const GPT_4O = { input: 2.5, read: 1.25, output: 10 };
const SONNET_4_5 = { input: 3, read: 0.3, write: 3.75, output: 15 };
const SONNET_4_5_LONG = { input: 6, read: 0.6, write: 7.5, output: 22.5 }; // prompts over 200k tokens
const GEMINI_2_5_FLASH = { input: 0.3, read: 0.03, output: 2.5 };
const M = 1e6;

describe('every part of usage at its own price', () => {
  const mock = useMock();

  const at = (path: string, model: string, own: Record<string, number> = {}): DeploymentConfig => ({
    model_name: 'm',
    svc_params: { model, api_base: `${mock.url}/${path}`, api_key: `sk-test-${path}-000000`, ...own },
  });

  async function costOf(entry: DeploymentConfig, behavior: MockBehavior, stream = false): Promise<number> {
    mock.setBehavior('/', behavior);
    const router = new Router([entry]);
    try {
      if (!stream)
        return (await router.acompletion({ model: 'm', messages: USER }))._hidden_params.response_cost;
      const s = (await router.acompletion({
        model: 'm',
        messages: USER,
        stream: true,
      })) as ChatCompletionStream;
      for await (const _ of s) {
        // read to the end: the cost comes with the final usage
      }
      return s._hidden_params.response_cost;
    } finally {
      await router.close();
    }
  }

  it('bills OpenAI cached_tokens at the cached-input price', async () => {
    const usage = { prompt_tokens: 1000, cached_tokens: 800, completion_tokens: 100 };
    const cost = await costOf(at('o/v1', 'openai/gpt-4o'), { usage });
    expect(cost).toBeCloseTo((200 * GPT_4O.input + 800 * GPT_4O.read + 100 * GPT_4O.output) / M, 12);
    expect(cost).toBeLessThan((1000 * GPT_4O.input + 100 * GPT_4O.output) / M);
  });

  it('bills OpenAI cached_tokens of a stream’s final usage', async () => {
    const usage = { prompt_tokens: 1000, cached_tokens: 800, completion_tokens: 100 };
    const cost = await costOf(at('o/v1', 'openai/gpt-4o'), { usage }, true);
    expect(cost).toBeCloseTo((200 * GPT_4O.input + 800 * GPT_4O.read + 100 * GPT_4O.output) / M, 12);
  });

  it('bills Anthropic cache reads and cache writes each at its price', async () => {
    const usage = {
      prompt_tokens: 10_000,
      cached_tokens: 6000,
      cache_creation_tokens: 3000,
      completion_tokens: 500,
    };
    const cost = await costOf(at('a', 'anthropic/claude-sonnet-4-5'), { usage });
    const s = SONNET_4_5;
    expect(cost).toBeCloseTo((1000 * s.input + 6000 * s.read + 3000 * s.write + 500 * s.output) / M, 12);
  });

  it('bills an Anthropic stream’s cache reads and writes', async () => {
    const usage = {
      prompt_tokens: 10_000,
      cached_tokens: 6000,
      cache_creation_tokens: 3000,
      completion_tokens: 500,
    };
    const cost = await costOf(at('a', 'anthropic/claude-sonnet-4-5'), { usage }, true);
    const s = SONNET_4_5;
    expect(cost).toBeCloseTo((1000 * s.input + 6000 * s.read + 3000 * s.write + 500 * s.output) / M, 12);
  });

  it('bills a prompt over 200k tokens at Anthropic’s long-context prices', async () => {
    const usage = { prompt_tokens: 250_000, cached_tokens: 50_000, completion_tokens: 1000 };
    const cost = await costOf(at('a', 'anthropic/claude-sonnet-4-5'), { usage });
    const s = SONNET_4_5_LONG;
    expect(cost).toBeCloseTo((200_000 * s.input + 50_000 * s.read + 1000 * s.output) / M, 12);
  });

  it('bills Gemini cachedContentTokenCount at the cached price', async () => {
    const usage = { prompt_tokens: 1000, cached_tokens: 600, completion_tokens: 100 };
    const cost = await costOf(at('g', 'gemini/gemini-2.5-flash'), { usage });
    const g = GEMINI_2_5_FLASH;
    expect(cost).toBeCloseTo((400 * g.input + 600 * g.read + 100 * g.output) / M, 12);
  });

  it('bills Gemini thinking tokens as output, as Google does', async () => {
    // 400 characters of thoughts: the mock reports 100 thoughtsTokenCount beside 100 candidate tokens
    const behavior = { usage: { prompt_tokens: 1000, completion_tokens: 100 }, reasoning: 'x'.repeat(400) };
    const cost = await costOf(at('g', 'gemini/gemini-2.5-flash'), behavior);
    const g = GEMINI_2_5_FLASH;
    expect(cost).toBeCloseTo((1000 * g.input + 200 * g.output) / M, 12);
  });

  it('bills cache reads at a deployment’s own cache price, else its input price', async () => {
    const usage = { prompt_tokens: 1000, cached_tokens: 800, completion_tokens: 100 };
    const prices = { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 };
    const cachePrice = { ...prices, cache_read_input_token_cost: 1e-7 };
    const withCachePrice = await costOf(at('o/v1', 'openai/gpt-4o', cachePrice), { usage });
    expect(withCachePrice).toBeCloseTo(200 * 1e-6 + 800 * 1e-7 + 100 * 2e-6, 12);
    const flat = await costOf(at('o/v1', 'openai/gpt-4o', prices), { usage });
    expect(flat).toBeCloseTo(1000 * 1e-6 + 100 * 2e-6, 12);
  });
});
