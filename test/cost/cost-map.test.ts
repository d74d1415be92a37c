import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_PRICES, MODEL_PRICES_SOURCE } from '../../src/cost/model-prices.js';
import { type ChatCompletionStream, Router } from '../../src/index.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';
import { deployment, USER } from '../helpers.js';
import { FORMATS, streamSuite } from '../streams/helpers.js';

const USAGE = { prompt_tokens: 1000, completion_tokens: 100 };

describe('the cost map as data', () => {
  it('is a JSON file that names its source and date', () => {
    const file = JSON.parse(
      readFileSync(new URL('../../src/cost/model-prices.json', import.meta.url), 'utf8'),
    );
    expect(file.source).toMatch(/\w/);
    expect(file.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(MODEL_PRICES_SOURCE).toEqual({ source: file.source, date: file.date });
  });

  it('gives every model a context window and non-negative prices', () => {
    for (const [name, price] of Object.entries(MODEL_PRICES)) {
      expect(price.max_input_tokens, name).toBeGreaterThan(0);
      expect(price.input_cost_per_token, name).toBeGreaterThanOrEqual(0);
      expect(price.output_cost_per_token, name).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('response_cost', () => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider();
  });
  beforeEach(() => {
    mock.reset();
    mock.setBehavior('/', { usage: USAGE });
  });
  afterAll(() => mock.close());

  const gpt4o = MODEL_PRICES['gpt-4o']!;
  const mapCost =
    USAGE.prompt_tokens * gpt4o.input_cost_per_token + USAGE.completion_tokens * gpt4o.output_cost_per_token;

  it('prices a call from the cost map', async () => {
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

  it('takes model_info prices over the cost map', async () => {
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

  it('takes model_info.max_input_tokens over the cost map’s context window', () => {
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
