import { describe, expect, it } from 'vitest';
import {
  type CooldownEvent,
  type FailureEvent,
  RateLimitError,
  Router,
  type SuccessEvent,
  TimeoutError,
  type WarningEvent,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { deployment, firstChoice, USER } from '../resilience/helpers.js';

const mock = useMock();

const two = (settings: ConstructorParameters<typeof Router>[1] = {}, a: Record<string, unknown> = {}) =>
  new Router([deployment(mock, 'a', a), deployment(mock, 'b')], settings, { random: firstChoice });

async function read(stream: AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>) {
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe('streams fail over before the caller sees a chunk', () => {
  it('moves to another deployment when the first token is later than first_token_timeout', async () => {
    mock.setBehavior('/a', { content: 'slow answer', stream: { chunkDelayMs: 400 } });
    mock.setBehavior('/b', { content: 'fast answer' });
    const router = two({ first_token_timeout: 0.15 });
    const cooldowns: CooldownEvent[] = [];
    router.on('cooldown', (e) => cooldowns.push(e));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const text = await read(stream);
    await router.close();
    expect(stream._hidden_params.model_id).toBe('b');
    expect(text).toBe('fast answer');
    expect(mock.hits('/a/')).toBe(1);
    // a timeout the router enforces counts against allowed_fails: one slow first token cools nothing
    expect(cooldowns).toEqual([]);
  });

  it('takes a deployment’s own first_token_timeout over the router’s', async () => {
    mock.setBehavior('/a', { content: 'slow answer', stream: { chunkDelayMs: 200 } });
    const router = two({ first_token_timeout: 0.05 }, { first_token_timeout: 2 });
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const text = await read(stream);
    await router.close();
    expect(stream._hidden_params.model_id).toBe('a');
    expect(text).toBe('slow answer');
  });

  it('moves on after stream_timeout when the upstream sends nothing at all', async () => {
    mock.setBehavior('/a', { fault: 'hang' });
    const router = two({ stream_timeout: 0.2, timeout: 30 });
    const start = performance.now();
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const ms = performance.now() - start;
    await read(stream);
    await router.close();
    expect(stream._hidden_params.model_id).toBe('b');
    expect(ms).toBeLessThan(1500);
  });
});

describe('streams after the first chunk', () => {
  it('throw a TimeoutError from the iterator when the upstream stalls, counted against the deployment', async () => {
    mock.setBehavior('/a', { content: 'one two three four', stream: { stallAfter: 3 } });
    const router = two({ stream_timeout: 0.2 });
    const failures: FailureEvent[] = [];
    router.on('failure', (e) => failures.push(e));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const error = await read(stream).then(
      () => undefined,
      (e: unknown) => e,
    );
    await router.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(failures.map((f) => f.model_id)).toEqual(['a']);
  });

  it('are complete when they end cleanly after the finish without [DONE]', async () => {
    mock.setBehavior('/a', { content: 'all of it', stream: { omitTerminal: true } });
    const router = two();
    const successes: SuccessEvent[] = [];
    router.on('success', (e) => successes.push(e));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const text = await read(stream);
    await router.close();
    expect(text).toBe('all of it');
    expect(successes.map((s) => [s.model_id, s.stream])).toEqual([['a', true]]);
  });

  it('skip an event that is not JSON, report it as a warning, and carry on', async () => {
    mock.setBehavior('/a', { content: 'still whole', stream: { malformedAfter: 2 } });
    const router = two();
    const warnings: WarningEvent[] = [];
    router.on('warning', (w) => warnings.push(w));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    const text = await read(stream);
    await router.close();
    expect(text).toBe('still whole');
    expect(warnings.map((w) => w.code)).toEqual(['malformed_event']);
  });
});

describe('answers checked before they count as served', () => {
  it('fails an embedding answered 200 with a rate-limit error body over to another deployment', async () => {
    mock.setBehavior('/a', {
      raw: {
        body: JSON.stringify({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }),
      },
    });
    const router = two();
    const failures: FailureEvent[] = [];
    router.on('failure', (e) => failures.push(e));
    const res = await router.aembedding({ model: 'gpt-4o', input: 'hello' });
    await router.close();
    expect(res._hidden_params.model_id).toBe('b');
    expect(res.data.length).toBe(1);
    expect(failures[0]?.error).toBeInstanceOf(RateLimitError);
  });

  it('never opens more than max_connections_per_origin sockets to one provider', async () => {
    mock.setBehavior('/a', { delayMs: 30 });
    const router = new Router([deployment(mock, 'a')], { max_connections_per_origin: 2 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => router.acompletion({ model: 'gpt-4o', messages: USER })),
    );
    await router.close();
    expect(results).toHaveLength(20);
    expect(mock.maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe('a short stream read a moment after it is returned', () => {
  it('still reports its success and cost when read to the end', async () => {
    mock.setBehavior('/a', { content: 'short' });
    const router = new Router([deployment(mock, 'a')]);
    const successes: SuccessEvent[] = [];
    router.on('success', (e) => successes.push(e));
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    await new Promise((r) => setTimeout(r, 50));
    const text = await read(stream);
    await router.close();
    expect(text).toBe('short');
    expect(successes.map((s) => s.model_id)).toEqual(['a']);
  });
});
