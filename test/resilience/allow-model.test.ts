// CallControl.allowModel: a call reaches only the models its caller may use, by asking or by falling
// back (CONTRACT 6.3, issue 22 item 1). Real routers over the mock provider.
import { describe, expect, it } from 'vitest';
import {
  ContentPolicyViolationError,
  ContextWindowExceededError,
  InternalServerError,
  PermissionDeniedError,
  Router,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { deployment, recordingRouter, trail, USER } from './helpers.js';

const mock = useMock();

/** A cheap group `m`, an expensive `premium` and a second cheap `backup`. */
const groups = () => [
  deployment(mock, 'm1', {}, 'm'),
  deployment(mock, 'p1', {}, 'premium'),
  deployment(mock, 'b1', {}, 'backup'),
];
const notPremium = (model: string) => model !== 'premium';
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('CallControl.allowModel', () => {
  it("skips a request's own fallback the caller may not use: the original failure, no call to it", async () => {
    const { router, fallbacks } = recordingRouter(groups());
    const error = await failure(
      router.acompletion(
        { model: 'm', messages: USER, fallbacks: ['premium'], mock_testing_fallbacks: true },
        { allowModel: notPremium },
      ),
    );
    await router.close();
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('mock_testing_fallbacks is set: m answered');
    expect(trail(mock)).toEqual([]);
    expect(fallbacks).toEqual([]);
  });

  it('serves from an allowed configured fallback after skipping a disallowed one', async () => {
    mock.setBehavior('/m1', { status: 500 });
    const { router, fallbacks } = recordingRouter(groups(), {
      num_retries: 0,
      fallbacks: [{ m: ['premium', 'backup'] }],
    });
    const res = await router.acompletion({ model: 'm', messages: USER }, { allowModel: notPremium });
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_group: 'backup', model_id: 'b1' });
    expect(trail(mock)).toEqual(['m1', 'b1']);
    expect(fallbacks.map((f) => [f.from, f.to])).toEqual([['m', 'backup']]);
  });

  it('skips default_fallbacks the caller may not use', async () => {
    mock.setBehavior('/m1', { status: 500 });
    const router = new Router(groups(), { num_retries: 0, default_fallbacks: ['premium'] });
    const error = await failure(
      router.acompletion({ model: 'm', messages: USER }, { allowModel: notPremium }),
    );
    await router.close();
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(trail(mock)).toEqual(['m1']);
  });

  it.each([
    ['context-window', 'context_length_exceeded', 'context_window_fallbacks', ContextWindowExceededError],
    ['content-policy', 'content_filter', 'content_policy_fallbacks', ContentPolicyViolationError],
  ] as const)('skips a %s fallback the caller may not use', async (_, code, setting, errorClass) => {
    mock.setBehavior('/m1', { status: 400, error: { code } });
    const router = new Router(groups(), { [setting]: [{ m: ['premium'] }] });
    const error = await failure(
      router.acompletion({ model: 'm', messages: USER }, { allowModel: notPremium }),
    );
    await router.close();
    expect(errorClass.isInstance(error)).toBe(true);
    expect(trail(mock)).toEqual(['m1']);
  });

  it('skips a pass-through fallback by its <provider>/<model> name', async () => {
    const router = new Router([deployment(mock, 'm1', {}, 'm')], {
      pass_through_all_models: true,
      default_svc_params: { api_base: `${mock.url}/pt/v1`, api_key: 'sk-default-0000' },
    });
    const asked: string[] = [];
    const allowModel = (model: string) => {
      asked.push(model);
      return model === 'm';
    };
    const request = { model: 'm', messages: USER, fallbacks: ['openai/gpt-5'], mock_testing_fallbacks: true };
    const error = await failure(router.acompletion(request, { allowModel }));
    await router.close();
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(asked).toEqual(['m', 'openai/gpt-5']);
    expect(trail(mock)).toEqual([]);
  });

  it('skips a disallowed fallback of a streamed call too', async () => {
    const router = new Router(groups());
    const request = {
      model: 'm',
      messages: USER,
      stream: true as const,
      fallbacks: ['premium', 'backup'],
      mock_testing_fallbacks: true,
    };
    const stream = await router.acompletion(request, { allowModel: notPremium });
    for await (const _ of stream) {
      // read to the end
    }
    await router.close();
    expect(trail(mock)).toEqual(['b1']);
  });

  it('refuses a requested model the caller may not use with 403, before any upstream call', async () => {
    const router = new Router(groups());
    const error = await failure(
      router.acompletion({ model: 'premium', messages: USER }, { allowModel: notPremium }),
    );
    await router.close();
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 403, model: 'premium' });
    expect((error as Error).message).toBe(
      'Model `premium` is not allowed for this call (CallControl.allowModel).',
    );
    expect(trail(mock)).toEqual([]);
  });

  it('applies to embeddings, text completions and images alike', async () => {
    const router = new Router(groups());
    const control = { allowModel: notPremium };
    const calls = [
      router.aembedding({ model: 'premium', input: 'hi' }, control),
      router.atextCompletion({ model: 'premium', prompt: 'hi' }, control),
      router.aimageGeneration({ model: 'premium', prompt: 'a cat' }, control),
    ];
    const errors = await Promise.all(calls.map(failure));
    await router.close();
    expect(errors.map((e) => PermissionDeniedError.isInstance(e))).toEqual([true, true, true]);
    expect(trail(mock)).toEqual([]);
  });
});
