import { describe, expect, it } from 'vitest';
import { type CallbackKwargs, type LoggerCallback, Router, type SuccessEvent } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { deployment, firstChoice, USER } from '../resilience/helpers.js';

const mock = useMock();

const RAW_KEY = 'key-RAWSECRET-abcdefgh1234';

/** A router whose logger callback records every call of either method. */
function recordingRouter(names: string[], settings: ConstructorParameters<typeof Router>[1] = {}) {
  const success: CallbackKwargs[] = [];
  const failure: CallbackKwargs[] = [];
  const callback: LoggerCallback = {
    logSuccessEvent: (kwargs) => void success.push(kwargs),
    logFailureEvent: (kwargs) => void failure.push(kwargs),
  };
  const router = new Router(
    names.map((n) => deployment(mock, n, { api_key: RAW_KEY })),
    { allowed_fails: 10, ...settings, callbacks: [callback] },
    { random: firstChoice },
  );
  return { router, success, failure };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
}

describe('logger callback kwargs', () => {
  it('carry cache_hit, usage, cost, timings and the attempt count of a call served at once', async () => {
    const { router, success } = recordingRouter(['a']);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => success.length > 0);
    await router.close();
    const kwargs = success[0]!;
    expect(kwargs).toMatchObject({
      model: 'gpt-4o',
      model_group: 'gpt-4o',
      model_id: 'a',
      messages: USER,
      cache_hit: false,
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
      attempts: 1,
      failed_attempts: [],
      svc_params: { api_key: '****1234', api_base: `${mock.url}/a/v1`, custom_llm_provider: 'openai' },
    });
    expect(kwargs.response_cost).toBeGreaterThan(0);
    const { start_time: start, completion_start_time: first, end_time: end } = kwargs;
    expect(first).toBeInstanceOf(Date);
    expect(start.getTime()).toBeLessThanOrEqual(first!.getTime());
    expect(first!.getTime()).toBeLessThanOrEqual(end.getTime());
  });

  it('list the failed attempts of a call a retry saved, on the success and on each failure', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router, success, failure } = recordingRouter(['a', 'b']);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => success.length > 0 && failure.length > 0);
    await router.close();
    const failedA = { model_id: 'a', error: 'InternalServerError', status: 500, message: expect.any(String) };
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatchObject({ model_id: 'a', attempts: 1, failed_attempts: [failedA], usage: null });
    expect(failure[0]!.completion_start_time).toBeNull();
    expect(failure[0]!.exception?.name).toBe('InternalServerError');
    expect(success[0]).toMatchObject({ model_id: 'b', attempts: 2, failed_attempts: [failedA] });
  });

  it('never hold the raw api key, even when the provider echoes it in an error', async () => {
    mock.setBehavior('/a', { status: 500, error: { message: `upstream rejected key ${RAW_KEY}` } });
    const { router, success, failure } = recordingRouter(['a', 'b']);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => success.length > 0 && failure.length > 0);
    await router.close();
    expect(failure[0]!.exception?.message).toContain('upstream rejected key');
    for (const kwargs of [...success, ...failure]) {
      expect(JSON.stringify(kwargs)).not.toContain(RAW_KEY);
      expect(JSON.stringify(kwargs.exception ?? {})).not.toContain(RAW_KEY);
      expect(kwargs.exception?.message ?? '').not.toContain(RAW_KEY);
    }
  });

  it('a failure callback that throws does not stop the retry that serves the call', async () => {
    mock.setBehavior('/a', { status: 500 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      {
        allowed_fails: 10,
        callbacks: [
          {
            logFailureEvent: () => {
              throw new Error('boom');
            },
          },
        ],
      },
      { random: firstChoice },
    );
    const errors: unknown[] = [];
    router.on('callback_error', (e) => errors.push(e.error));
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => errors.length > 0);
    await router.close();
    expect(res._hidden_params.model_id).toBe('b');
    expect(errors).toEqual([new Error('boom')]);
  });
});

describe('streams report when they end', () => {
  it('fire logSuccessEvent and success once the stream is read to its end, with the final usage and cost', async () => {
    mock.setBehavior('/a', { content: 'one two three', usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const { router, success } = recordingRouter(['a']);
    const events: SuccessEvent[] = [];
    router.on('success', (e) => events.push(e));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    expect(events).toEqual([]);
    for await (const _ of stream) {
      // read to the end
    }
    await until(() => success.length > 0);
    await router.close();
    expect(events).toEqual([
      expect.objectContaining({
        stream: true,
        usage: expect.objectContaining({ prompt_tokens: 7, completion_tokens: 3 }),
      }),
    ]);
    expect(events[0]!.response_cost).toBeGreaterThan(0);
    expect(success[0]).toMatchObject({
      stream: true,
      usage: { prompt_tokens: 7, completion_tokens: 3 },
      response_cost: events[0]!.response_cost,
    });
    expect(success[0]!.completion_start_time!.getTime()).toBeLessThanOrEqual(success[0]!.end_time.getTime());
    expect(stream._hidden_params.response_cost).toBe(events[0]!.response_cost);
  });
});
