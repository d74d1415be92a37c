import { beforeEach, describe, expect, it } from 'vitest';
import { type ChatCompletionStream, lookupModelPrice, Router } from '../../src/index.js';
import { supportsReasoning } from '../../src/reasoning/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { FORMATS, streamSuite } from '../streams/helpers.js';

const USAGE = { prompt_tokens: 1000, completion_tokens: 100 };
const M = 1e6;

describe('the catalog', () => {
  // list prices in the catalog of package-lock (genai-prices 0.1.8), dollars per million tokens
  it.each([
    ['openai/gpt-4o-2024-08-06', 2.5, 10, 128_000],
    ['azure/gpt-4o', 2.5, 10, 128_000],
    ['anthropic/claude-sonnet-4-5-20250929', 3, 15, 200_000],
    ['gemini/gemini-2.5-pro', 1.25, 10, 1_048_576],
    ['vertex_ai/claude-3-5-sonnet@20240620', 3, 15, 200_000],
    ['bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0', 3, 15, 200_000],
    ['bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0', 3, 15, 200_000],
    ['bedrock/converse/global.anthropic.claude-sonnet-4-5-20250929-v1:0', 3, 15, 200_000],
    ['openrouter/anthropic/claude-3.7-sonnet', 3, 15, 200_000],
    ['openrouter/deepseek/deepseek-r1', 0.45, 2.15, 64_000],
    ['openrouter/x-ai/grok-4', 3, 15, 256_000],
    ['xai/grok-4', 3, 15, 256_000],
    ['groq/llama-3.3-70b-versatile', 0.59, 0.79, 131_072],
  ])('prices %s at $%s/$%s per million with a %s-token window', (model, input, output, window) => {
    const price = lookupModelPrice(model);
    expect(price?.input_cost_per_token).toBeCloseTo(input / M, 15);
    expect(price?.output_cost_per_token).toBeCloseTo(output / M, 15);
    expect(price?.max_input_tokens).toBe(window);
  });

  it('takes an OpenRouter model’s cache prices from its vendor when the list price is the vendor’s', () => {
    const price = lookupModelPrice('openrouter/anthropic/claude-3.7-sonnet');
    expect(price?.cache_read_input_token_cost).toBeCloseTo(0.3 / M, 15);
    expect(price?.cache_creation_input_token_cost).toBeCloseTo(3.75 / M, 15);
  });

  it('has no price for a model its provider does not list', () => {
    expect(lookupModelPrice('openai/llama3-70b-8192')).toBeUndefined();
    expect(lookupModelPrice('azure/my-gpt-deployment')).toBeUndefined();
  });

  it.each([
    'openrouter/anthropic/claude-3.7-sonnet',
    'openrouter/deepseek/deepseek-r1',
    'bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0',
    'together_ai/deepseek-ai/DeepSeek-R1',
  ])('knows %s reasons', (model) => {
    expect(supportsReasoning(model)).toBe(true);
    expect(lookupModelPrice(model)?.supports_reasoning).toBe(true);
  });
});

describe('response_cost', () => {
  const mock = useMock();
  beforeEach(() => {
    mock.setBehavior('/', { usage: USAGE });
  });

  // gpt-4o: $2.50 input, $10 output per million tokens
  const mapCost = (USAGE.prompt_tokens * 2.5 + USAGE.completion_tokens * 10) / M;

  it('prices a call from the catalog', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.response_cost).toBeCloseTo(mapCost, 12);
  });

  it('prices a stream from its final usage chunk', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const stream = (await router.acompletion({
      model: 'gpt-4o',
      messages: USER,
      stream: true,
    })) as ChatCompletionStream;
    for await (const _ of stream) {
      // read to the end
    }
    await router.close();
    expect(stream._hidden_params.response_cost).toBeCloseTo(mapCost, 12);
  });

  it('takes model_info prices over the catalog', async () => {
    const entry = {
      ...deployment(mock, 'a'),
      model_info: { id: 'a', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 },
    };
    const router = new Router([entry]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.response_cost).toBeCloseTo(1000 * 1e-6 + 100 * 2e-6, 12);
  });

  it('takes svc_params prices over model_info', async () => {
    const entry = {
      ...deployment(mock, 'a', { input_cost_per_token: 0, output_cost_per_token: 1e-5 }),
      model_info: { id: 'a', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 },
    };
    const router = new Router([entry]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.response_cost).toBeCloseTo(100 * 1e-5, 12);
  });

  it('takes model_info.max_input_tokens over the catalog’s context window', () => {
    const router = new Router([
      { ...deployment(mock, 'a'), model_info: { id: 'a', max_input_tokens: 4096 } },
    ]);
    const [info] = router.getModelGroupInfo();
    void router.close();
    expect(info?.max_input_tokens).toBe(4096);
  });

  it('rejects a negative model_info price, naming the field', () => {
    const entry = { ...deployment(mock, 'a'), model_info: { id: 'a', input_cost_per_token: -1 } };
    expect(() => new Router([entry])).toThrow(/model_info\.input_cost_per_token/);
  });
});

describe('stream usage from every provider format', () => {
  const suite = streamSuite();
  for (const format of FORMATS) {
    it(`${format} streams end with usage`, async () => {
      const { error, chunks } = await suite.run(format);
      expect(error).toBeUndefined();
      const usage = chunks
        .map((c) => c.usage)
        .filter(Boolean)
        .at(-1);
      expect(usage?.prompt_tokens).toBeGreaterThan(0);
      expect(usage?.completion_tokens).toBeGreaterThan(0);
    });
  }
});
