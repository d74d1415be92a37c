import { describe, expect, it } from 'vitest';
import {
  type AbortedAttempt,
  BadRequestError,
  type CallbackKwargs,
  type FailureEvent,
  type LoggerCallback,
  MAX_MODEL_CHARS,
  Router,
  type SuccessEvent,
} from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { PlainSignal } from '../support/plain-signal.js';

const mock = useMock();

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('Router results', () => {
  it('attaches _hidden_params that JSON.stringify leaves out', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params).toEqual({
      model_id: 'a',
      model_group: 'gpt-4o',
      api_base: `${mock.url}/a/v1`,
      custom_llm_provider: 'openai',
      response_cost: expect.any(Number),
      priced: true,
      cache_hit: false,
      attempts: 1,
    });
    expect(Object.keys(res)).not.toContain('_hidden_params');
    expect(JSON.stringify(res)).not.toContain('_hidden_params');
  });

  it('gives a stream _hidden_params that its keys leave out, its cost set at the end', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    expect(stream._hidden_params).toMatchObject({ model_id: 'a', model_group: 'gpt-4o', response_cost: 0 });
    expect(Object.keys(stream)).not.toContain('_hidden_params');
    for await (const _ of stream) {
      // read to the end
    }
    await router.close();
    expect(stream._hidden_params.response_cost).toBeGreaterThan(0);
  });

  it('computes response_cost from the catalog', async () => {
    mock.setBehavior('/a', { usage: { prompt_tokens: 1000, completion_tokens: 100 } });
    const router = new Router([deployment(mock, 'a')]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    // gpt-4o: $2.5/M input, $10/M output
    expect(res._hidden_params.response_cost).toBeCloseTo(1000 * 2.5e-6 + 100 * 1e-5, 10);
  });

  it('prefers the deployment’s own prices to the catalog', async () => {
    mock.setBehavior('/a', { usage: { prompt_tokens: 10, completion_tokens: 10 } });
    const router = new Router([deployment(mock, 'a', { input_cost_per_token: 1, output_cost_per_token: 2 })]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.response_cost).toBe(30);
  });

  it('never forwards router-only fields upstream', async () => {
    const router = new Router([deployment(mock, 'a')]);
    await router.acompletion({
      model: 'gpt-4o',
      messages: USER,
      metadata: { trace: 1 },
      drop_params: true,
      num_retries: 1,
      fallbacks: ['x'],
      timeout: 5,
      cache: { 'no-cache': true },
      allowed_model_region: 'eu',
      temperature: 0.5,
    });
    await router.close();
    expect(mock.requests[0]?.body).toEqual({ model: 'gpt-4o', messages: USER, temperature: 0.5 });
  });

  it('never forwards the router fields LiteLLM clients send', async () => {
    const router = new Router([deployment(mock, 'a')]);
    await router.acompletion({
      model: 'gpt-4o',
      messages: USER,
      caching: true,
      mock_testing_fallbacks: false,
      specific_deployment: true,
      tags: ['free'],
      litellm_metadata: { a: 1 },
      max_retries: 1,
      stream_timeout: 3,
      api_key: 'sk-from-request-1234',
      user: 'end-user-1',
    } as never);
    await router.close();
    expect(mock.requests[0]?.body).toEqual({ model: 'gpt-4o', messages: USER, user: 'end-user-1' });
  });

  it('answers mock_testing_fallbacks through the fallbacks without calling the primary', async () => {
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'f', {}, 'backup')], {
      fallbacks: [{ 'gpt-4o': ['backup'] }],
    });
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER, mock_testing_fallbacks: true });
    await router.close();
    expect(res._hidden_params.model_id).toBe('f');
    expect(mock.hits('/a/')).toBe(0);
  });

  it('streams chunks with _hidden_params and fills response_cost at the end', async () => {
    mock.setBehavior('/a', {
      content: 'streamed text',
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    });
    const router = new Router([deployment(mock, 'a')]);
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    expect(stream._hidden_params.model_id).toBe('a');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    await router.close();
    expect(text).toBe('streamed text');
    expect(stream._hidden_params.response_cost).toBeCloseTo(100 * 2.5e-6 + 10 * 1e-5, 10);
  });

  it('serves embeddings, text completions and images through the same routing', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const emb = await router.aembedding({ model: 'gpt-4o', input: 'x' });
    const txt = await router.atextCompletion({ model: 'gpt-4o', prompt: 'x' });
    const img = await router.aimageGeneration({ model: 'gpt-4o', prompt: 'x' });
    await router.close();
    expect([emb._hidden_params.model_id, txt._hidden_params.model_id, img._hidden_params.model_id]).toEqual([
      'a',
      'a',
      'a',
    ]);
    expect(mock.requests.map((r) => r.path)).toEqual([
      '/a/v1/embeddings',
      '/a/v1/completions',
      '/a/v1/images/generations',
    ]);
  });
});

describe('Router requests', () => {
  it('rejects an unknown model with the closest group name', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const error = await router.acompletion({ model: 'gpt4o', messages: USER }).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('Unknown model `gpt4o`; did you mean `gpt-4o`?');
  });

  it('rejects a request without messages, naming the field', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const error = await router.acompletion({ model: 'gpt-4o', messages: [] }).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('request.messages');
    expect(mock.requests).toHaveLength(0);
  });

  it('rejects a model name over MAX_MODEL_CHARS, naming the field and the bound', async () => {
    const router = new Router([
      { model_name: '*', svc_params: { model: 'openai/*', api_base: `${mock.url}/a/v1`, api_key: 'sk' } },
    ]);
    const model = 'm'.repeat(MAX_MODEL_CHARS + 1);
    const error = await router.acompletion({ model, messages: USER }).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('request.model');
    expect((error as Error).message).toContain(`at most ${MAX_MODEL_CHARS} characters`);
    expect(mock.requests).toHaveLength(0);
  });

  it('answers mock_response without calling any provider', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER, mock_response: 'canned' });
    await router.close();
    expect(res.choices[0]?.message.content).toBe('canned');
    expect(res._hidden_params.model_id).toBe('a');
    expect(mock.requests).toHaveLength(0);
  });

  it('answers a deployment’s svc_params.mock_response, streaming too', async () => {
    const router = new Router([deployment(mock, 'a', { mock_response: 'from params' })]);
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    await router.close();
    expect(text).toBe('from params');
    expect(mock.requests).toHaveLength(0);
  });

  it('passes an unlisted <provider>/<model> through with default_svc_params when pass_through_all_models is on', async () => {
    const router = new Router([], {
      pass_through_all_models: true,
      default_svc_params: { api_base: `${mock.url}/pt/v1`, api_key: 'sk-default-0000' },
    });
    const res = await router.acompletion({ model: 'openai/gpt-4o-mini', messages: USER });
    await router.close();
    expect(mock.requests[0]?.path).toBe('/pt/v1/chat/completions');
    expect(mock.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
    expect(res._hidden_params.custom_llm_provider).toBe('openai');
  });

  it('rejects an unlisted model when pass_through_all_models is off', async () => {
    const router = new Router([deployment(mock, 'a')]);
    await expect(router.acompletion({ model: 'openai/gpt-4o-mini', messages: USER })).rejects.toThrow(
      /pass_through_all_models is off/,
    );
    await router.close();
  });

  it('honours a request timeout (seconds)', async () => {
    mock.setBehavior('/a', { delayMs: 1_500 });
    const router = new Router([deployment(mock, 'a')], { num_retries: 0 });
    const started = Date.now();
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER, timeout: 0.1 })).rejects.toMatchObject(
      {
        name: 'TimeoutError',
      },
    );
    await router.close();
    // the answer would take 1.5 s: a loaded machine's slack fits below 1 s
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('honours a deployment’s timeout over the router’s', async () => {
    mock.setBehavior('/a', { delayMs: 400 });
    const router = new Router([deployment(mock, 'a', { timeout: 0.1 })], { timeout: 30 });
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    await router.close();
  });

  it('passes the caller’s AbortSignal through and counts no failure', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    const router = new Router([deployment(mock, 'a')]);
    const failures: FailureEvent[] = [];
    router.on('failure', (e) => failures.push(e));
    const controller = new AbortController();
    const pending = router.acompletion({ model: 'gpt-4o', messages: USER }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
    await router.close();
    expect(failures).toHaveLength(0);
  });

  it('tells onAbortedAttempt of the attempt under way when the caller aborts, priced at its deployment', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    const router = new Router([deployment(mock, 'a')]);
    const told: AbortedAttempt[] = [];
    const controller = new AbortController();
    const pending = router.acompletion(
      { model: 'gpt-4o', messages: USER },
      { signal: controller.signal, onAbortedAttempt: (attempt) => told.push(attempt) },
    );
    await until(() => mock.hits('/a/') === 1);
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
    await router.close();
    expect(told).toEqual([
      {
        model_id: 'a',
        model_group: 'gpt-4o',
        provider: 'openai',
        priced: true,
        costOf: expect.any(Function),
      },
    ]);
    // gpt-4o's catalog price: $2.50 per million input tokens
    expect(told[0]!.costOf({ prompt_tokens: 1_000_000, completion_tokens: 0 })).toBeCloseTo(2.5, 6);
  });

  it('tells onAbortedAttempt nothing of a call that answered', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const told: AbortedAttempt[] = [];
    const controller = new AbortController();
    await router.acompletion(
      { model: 'gpt-4o', messages: USER },
      { signal: controller.signal, onAbortedAttempt: (attempt) => told.push(attempt) },
    );
    controller.abort();
    await router.close();
    expect(told).toEqual([]);
  });

  it('takes a caller signal that is not an AbortSignal: its abort rejects with its reason', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    const router = new Router([deployment(mock, 'a')]);
    const failures: FailureEvent[] = [];
    router.on('failure', (e) => failures.push(e));
    const signal = new PlainSignal();
    const pending = router.acompletion({ model: 'gpt-4o', messages: USER }, { signal });
    setTimeout(() => signal.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
    await router.close();
    expect(failures).toHaveLength(0);
  });

  it('leaves no listener on the caller’s signal once a call has answered', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const signal = new PlainSignal();
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER }, { signal });
    await router.close();
    expect(res.object).toBe('chat.completion');
    expect(signal.listeners.size).toBe(0);
  });
});

describe('Router events and callbacks', () => {
  it('emits success with the deployment and latency', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const events: SuccessEvent[] = [];
    router.on('success', (e) => events.push(e));
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(events).toEqual([
      expect.objectContaining({
        model: 'gpt-4o',
        model_id: 'a',
        provider: 'openai',
        attempts: 1,
        stream: false,
      }),
    ]);
  });

  it('emits failure with the typed error', async () => {
    mock.setBehavior('/a', { status: 401 });
    const router = new Router([deployment(mock, 'a')]);
    const events: FailureEvent[] = [];
    router.on('failure', (e) => events.push(e));
    await router.acompletion({ model: 'gpt-4o', messages: USER }).catch(() => undefined);
    await router.close();
    expect(events[0]?.error.name).toBe('AuthenticationError');
    expect(events[0]?.model_id).toBe('a');
  });

  it('gives logger callbacks the cost and masked svc_params', async () => {
    const seen: Array<{ kwargs: CallbackKwargs; start: Date; end: Date }> = [];
    const logger: LoggerCallback = {
      logSuccessEvent: (kwargs, _res, start, end) => {
        seen.push({ kwargs, start, end });
      },
    };
    const router = new Router([deployment(mock, 'a', { api_key: 'sk-abcdefghijkl1234' })], {
      callbacks: [logger],
    });
    await router.acompletion({ model: 'gpt-4o', messages: USER, metadata: { user: 'u1' } });
    await until(() => seen.length > 0);
    await router.close();
    expect(seen[0]?.kwargs).toMatchObject({
      model: 'gpt-4o',
      model_id: 'a',
      response_cost: expect.any(Number),
      metadata: { user: 'u1' },
      svc_params: { api_key: '****1234', api_base: `${mock.url}/a/v1`, custom_llm_provider: 'openai' },
    });
    expect(seen[0]?.end.getTime()).toBeGreaterThanOrEqual(seen[0]?.start.getTime() ?? 0);
  });

  it('masks keys of 8 characters or fewer entirely', async () => {
    const seen: CallbackKwargs[] = [];
    const router = new Router([deployment(mock, 'a', { api_key: 'short' })], {
      callbacks: [{ logSuccessEvent: (k: CallbackKwargs) => void seen.push(k) }],
    });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => seen.length > 0);
    await router.close();
    expect(seen[0]?.svc_params.api_key).toBe('****');
  });

  it('a throwing or rejecting callback neither fails nor delays the call', async () => {
    const errors: unknown[] = [];
    const router = new Router([deployment(mock, 'a')], {
      callbacks: [
        {
          logSuccessEvent: () => {
            throw new Error('sync boom');
          },
        },
        { logSuccessEvent: () => Promise.reject(new Error('async boom')) },
        { logSuccessEvent: () => new Promise((r) => setTimeout(r, 1000)) },
      ],
    });
    router.on('callback_error', (e) => errors.push(e.error));
    const started = Date.now();
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    expect(Date.now() - started).toBeLessThan(500);
    expect(res.choices[0]?.message.content).toBeTruthy();
    await until(() => errors.length >= 2);
    await router.close();
    expect(errors.map((e) => (e as Error).message).sort()).toEqual(['async boom', 'sync boom']);
  });
});

describe('Router lifecycle and settings', () => {
  it('close() releases the pools; later calls fail clearly', async () => {
    const router = new Router([deployment(mock, 'a')]);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toThrow('Router is closed');
  });

  it('updateSettings validates like the constructor and keeps the old settings on error', () => {
    const router = new Router([deployment(mock, 'a')], { num_retries: 1 });
    expect(() => router.updateSettings({ num_retrys: 3 } as never)).toThrow('did you mean `num_retries`?');
    expect(router.settings.num_retries).toBe(1);
    router.updateSettings({ num_retries: 4 });
    expect(router.settings.num_retries).toBe(4);
  });

  it('accepts async_only_mode (every call is async already)', () => {
    expect(new Router([deployment(mock, 'a')], { async_only_mode: true }).settings.async_only_mode).toBe(
      true,
    );
  });

  it('routes with a custom strategy object', async () => {
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'b')]);
    router.setCustomRoutingStrategy({
      asyncGetAvailableDeployment: async ({ model }) =>
        router.modelList.find((d) => d.model_name === model && d.model_info.id === 'b'),
    });
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.model_id).toBe('b');
  });

  it('describes model groups', () => {
    const router = new Router([
      deployment(mock, 'a'),
      {
        model_name: 'claude',
        // the catalog is asked per provider: a Claude model is priced where Anthropic serves it
        svc_params: { model: 'anthropic/claude-sonnet-4-5', api_key: 'sk-test' },
        model_info: { supports_reasoning: true },
      },
    ]);
    expect(router.getModelGroupInfo()).toEqual([
      {
        model_group: 'gpt-4o',
        providers: ['openai'],
        mode: 'chat',
        supports_reasoning: false,
        max_input_tokens: 128000,
        input_cost_per_token: 2.5e-6,
        output_cost_per_token: 1e-5,
      },
      expect.objectContaining({ model_group: 'claude', supports_reasoning: true, max_input_tokens: 200000 }),
    ]);
  });

  it('exposes modelList entries with model_info.id set', () => {
    const router = new Router([
      { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test' } },
    ]);
    expect(router.modelList[0]?.model_info.id).toMatch(/^[0-9a-f]{64}$/);
  });
});
