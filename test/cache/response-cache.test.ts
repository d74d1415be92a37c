import { describe, expect, it } from 'vitest';
import {
  type CallbackKwargs,
  MemoryStore,
  Router,
  type RouterSettings,
  type SuccessEvent,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { deployment, USER } from '../resilience/helpers.js';

const mock = useMock();

const cached = (settings: RouterSettings = {}, deps = {}) =>
  new Router([deployment(mock, 'a')], { cache_responses: true, ...settings }, deps);
const ask = (router: Router, extra: Record<string, unknown> = {}) =>
  router.acompletion({ model: 'gpt-4o', messages: USER, ...extra });
const askStream = (router: Router) => router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });

async function text(stream: AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>) {
  let out = '';
  for await (const chunk of stream) out += chunk.choices[0]?.delta.content ?? '';
  return out;
}

describe('response cache', () => {
  it('serves a second identical call from the cache: one upstream call, cache_hit, no cost', async () => {
    mock.setBehavior('/a', { content: 'cached answer' });
    const router = cached();
    const first = await ask(router);
    const second = await ask(router);
    await router.close();
    expect(mock.hits('/a/')).toBe(1);
    expect(second.choices[0]?.message.content).toBe('cached answer');
    expect(first._hidden_params.cache_hit).toBe(false);
    expect(second._hidden_params).toMatchObject({
      cache_hit: true,
      response_cost: 0,
      model_id: 'a',
      attempts: 0,
    });
  });

  it('gives each caller its own copy of a cached answer', async () => {
    const router = cached();
    const first = await ask(router);
    first.choices[0]!.message.content = 'changed by the caller';
    const second = await ask(router);
    await router.close();
    expect(second.choices[0]?.message.content).not.toBe('changed by the caller');
  });

  it('makes one upstream call for 20 identical misses in flight at once', async () => {
    mock.setBehavior('/a', { content: 'once', delayMs: 50 });
    const router = cached();
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(router)));
    await router.close();
    expect(mock.hits('/a/')).toBe(1);
    expect(answers.map((a) => a.choices[0]?.message.content)).toEqual(Array(20).fill('once'));
  });

  it('shares answers between the model groups of a caching group', async () => {
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'b', {}, 'gpt-4o-eu')], {
      cache_responses: true,
      caching_groups: [['gpt-4o', 'gpt-4o-eu']],
    });
    await ask(router);
    const other = await router.acompletion({ model: 'gpt-4o-eu', messages: USER });
    await router.close();
    expect(mock.hits('/b/')).toBe(0);
    expect(other._hidden_params.cache_hit).toBe(true);
  });

  it('keeps answers apart for different users’ prompts but not for their metadata', async () => {
    const router = cached();
    await ask(router, { metadata: { user: 'x' }, user: 'one' });
    await ask(router, { metadata: { user: 'y' }, user: 'two' });
    await ask(router, { messages: [{ role: 'user', content: 'another prompt' }] });
    await router.close();
    expect(mock.hits('/a/')).toBe(2);
  });

  it('shares answers between routers on one store', async () => {
    const store = new MemoryStore();
    const one = cached({}, { store });
    const two = cached({}, { store });
    await ask(one);
    const second = await ask(two);
    await Promise.all([one.close(), two.close()]);
    expect(mock.hits('/a/')).toBe(1);
    expect(second._hidden_params.cache_hit).toBe(true);
  });

  it('never caches a rate limit', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1 });
    const router = cached({ num_retries: 0 });
    await ask(router).catch(() => undefined);
    const after = await ask(router);
    await router.close();
    expect(after._hidden_params.cache_hit).toBe(false);
    expect(mock.hits('/a/')).toBe(2);
  });

  it('never caches a content-filtered answer', async () => {
    mock.setBehavior('/a', { openaiVariant: { contentFilter: 'completion' } });
    const router = cached();
    await ask(router);
    await ask(router);
    await router.close();
    expect(mock.hits('/a/')).toBe(2);
  });

  it('never caches a cut stream', async () => {
    mock.setBehavior('/a', { content: 'one two three', stream: { cutAfter: 3 } });
    const router = cached();
    const stream = await askStream(router);
    await text(stream).catch(() => undefined);
    mock.setBehavior('/a', { content: 'whole' });
    const after = await ask(router);
    await router.close();
    expect(after.choices[0]?.message.content).toBe('whole');
    expect(mock.hits('/a/')).toBe(2);
  });

  it('replays a cached answer as a stream to a streaming call, and caches a streamed answer', async () => {
    mock.setBehavior('/a', { content: 'streamed then replayed', reasoning: 'thought' });
    const router = cached();
    const live = await askStream(router);
    expect(await text(live)).toBe('streamed then replayed');
    const replay = await askStream(router);
    const replayed = await text(replay);
    const plain = await ask(router);
    await router.close();
    expect(mock.hits('/a/')).toBe(1);
    expect(replayed).toBe('streamed then replayed');
    expect(replay._hidden_params.cache_hit).toBe(true);
    expect(plain.choices[0]?.message).toMatchObject({
      content: 'streamed then replayed',
      reasoning_content: 'thought',
    });
  });

  it('honours no-cache, no-store and caching: false per request', async () => {
    const router = cached();
    await ask(router, { cache: { 'no-store': true } });
    await ask(router); // stored now
    const fresh = await ask(router, { cache: { 'no-cache': true } });
    const skipped = await ask(router, { caching: false });
    const hit = await ask(router);
    await router.close();
    expect(mock.hits('/a/')).toBe(4);
    expect([fresh, skipped, hit].map((r) => r._hidden_params.cache_hit)).toEqual([false, false, true]);
  });

  it('forgets an answer after its ttl', async () => {
    const router = cached({ cache_kwargs: { ttl: 0.05 } });
    await ask(router);
    await new Promise((r) => setTimeout(r, 80));
    const after = await ask(router);
    await router.close();
    expect(after._hidden_params.cache_hit).toBe(false);
  });

  it('tells success listeners about a hit, with no cost', async () => {
    const router = cached();
    // a priced deployment, so that the miss costs something and the hit visibly nothing
    router.addDeployment(
      deployment(mock, 'p', { input_cost_per_token: 1, output_cost_per_token: 1 }, 'priced'),
    );
    const events: SuccessEvent[] = [];
    router.on('success', (e) => events.push(e));
    const priced = { model: 'priced', messages: USER };
    await router.acompletion(priced);
    await router.acompletion(priced);
    await router.close();
    expect(events.map((e) => e.attempts)).toEqual([1, 0]);
    expect(events[0]!.response_cost).toBeGreaterThan(0);
    expect(events[1]!.response_cost).toBe(0);
  });

  it('tells logger callbacks about a hit with cache_hit and no cost', async () => {
    const seen: Array<{ cache_hit: boolean; response_cost: number }> = [];
    const router = cached({
      callbacks: [{ logSuccessEvent: (kwargs: CallbackKwargs) => void seen.push(kwargs) }],
    });
    await ask(router);
    await ask(router);
    await new Promise((r) => setImmediate(r));
    await router.close();
    expect(seen.map((k) => k.cache_hit)).toEqual([false, true]);
    expect(seen[1]?.response_cost).toBe(0);
  });

  it('caches embeddings', async () => {
    const router = cached();
    await router.aembedding({ model: 'gpt-4o', input: 'hello' });
    const second = await router.aembedding({ model: 'gpt-4o', input: 'hello' });
    await router.close();
    expect(second._hidden_params.cache_hit).toBe(true);
    expect(second.data.length).toBe(1);
  });

  it('does not replay an answer from a fallback group to a caller whose allowModel refuses that group', async () => {
    mock.setBehavior('/m1', { status: 500 });
    mock.setBehavior('/p1', { content: 'premium answer' });
    const router = new Router([deployment(mock, 'm1', {}, 'm'), deployment(mock, 'p1', {}, 'premium')], {
      cache_responses: true,
      num_retries: 0,
      disable_cooldowns: true,
      fallbacks: [{ m: ['premium'] }],
    });
    const ask = (control?: { allowModel: (model: string) => boolean }) =>
      router.acompletion({ model: 'm', messages: USER }, control);
    const open = await ask();
    mock.setBehavior('/m1', { content: 'm answer' });
    const restricted = await ask({ allowModel: (model) => model !== 'premium' });
    const again = await ask();
    await router.close();
    expect(open._hidden_params.model_id).toBe('p1');
    expect(restricted.choices[0]?.message.content).toBe('m answer');
    expect(restricted._hidden_params).toMatchObject({ cache_hit: false, model_id: 'm1' });
    // a caller who may reach both is served from the cache as before
    expect(again._hidden_params.cache_hit).toBe(true);
  });

  it('rejects unknown cache_kwargs at construction', () => {
    expect(() => cached({ cache_kwargs: { tll: 5 } as never })).toThrow(/tll/);
  });
});
