import { describe, expect, it } from 'vitest';
import {
  type ChatCompletionStream,
  ConfigError,
  type Logger,
  Router,
  type RouterSettings,
} from '../../src/index.js';
import { seededRandom } from '../../src/testing/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, sleep } from '../resilience/helpers.js';

const mock = useMock();

const MIRROR = { model: 'gpt-4o', to: 'gpt-4o-canary' };

/** `a` serves gpt-4o, `m` the silent gpt-4o-canary. */
function mirrored(settings: RouterSettings, deps: { logger?: Logger; random?: () => number } = {}) {
  return new Router([deployment(mock, 'a'), deployment(mock, 'm', {}, 'gpt-4o-canary')], settings, {
    random: () => 0,
    ...deps,
  });
}

async function until(check: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(5);
}

function recordingLogger() {
  const warnings: { message: string; fields: unknown }[] = [];
  const nothing = () => undefined;
  const logger: Logger = {
    debug: nothing,
    info: nothing,
    warn: (message, fields) => warnings.push({ message, fields }),
    error: nothing,
  };
  return { logger, warnings };
}

describe('traffic mirroring', () => {
  it('copies a call to the mirror group in the background', async () => {
    const router = mirrored({ mirrors: [MIRROR] });
    const res = await ask(router);
    await until(() => mock.hits('/m') === 1);
    await router.close();
    expect(res._hidden_params.model_id).toBe('a');
    expect(mock.hits('/m')).toBe(1);
  });

  it('leaves the primary’s latency untouched by a slow mirror', async () => {
    mock.setBehavior('/m', { delayMs: 300 });
    const router = mirrored({ mirrors: [MIRROR] });
    const start = performance.now();
    await ask(router);
    const ms = performance.now() - start;
    await router.close();
    expect(ms).toBeLessThan(150);
  });

  it('only logs a mirror’s failure, counting it against the mirror’s deployment alone', async () => {
    mock.setBehavior('/m', { status: 500 });
    const { logger, warnings } = recordingLogger();
    const router = mirrored({ mirrors: [MIRROR], allowed_fails: 10 }, { logger });
    const res = await ask(router);
    await until(() => warnings.length > 0);
    const health = router.getDeployments();
    await router.close();
    expect(res._hidden_params.model_id).toBe('a');
    expect(mock.hits('/m')).toBe(1); // never retried
    expect(warnings[0]).toMatchObject({
      message: expect.stringMatching(/^mirror of gpt-4o to gpt-4o-canary failed/),
      fields: { code: 'mirror_failed' },
    });
    expect(health.find((d) => d.model_id === 'm')?.failures_this_minute).toBe(1);
    expect(health.find((d) => d.model_id === 'a')?.failures_this_minute).toBe(0);
  });

  it('copies the sampled fraction of calls, with the router’s random source', async () => {
    const router = mirrored({ mirrors: [{ ...MIRROR, sample_rate: 0.25 }] }, { random: seededRandom(3) });
    for (let i = 0; i < 200; i++) await ask(router);
    await sleep(50);
    await router.close();
    expect(mock.hits('/a')).toBe(200);
    expect(mock.hits('/m')).toBeGreaterThan(25);
    expect(mock.hits('/m')).toBeLessThan(75);
  });

  it('mirrors streams, reading the mirror’s stream to its end', async () => {
    mock.setBehavior('/a', { content: 'primary answer' });
    const router = mirrored({ mirrors: [MIRROR] });
    const stream = (await ask(router, 'gpt-4o', { stream: true })) as unknown as ChatCompletionStream;
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    await until(() => router.getDeployments().find((d) => d.model_id === 'm')?.calls_this_minute === 1);
    const m = router.getDeployments().find((d) => d.model_id === 'm')!;
    await router.close();
    expect(text).toBe('primary answer');
    expect(m).toMatchObject({ calls_this_minute: 1, failures_this_minute: 0, in_flight: 0 });
  });

  it('rejects a mirror naming an unknown group, with a suggestion', () => {
    const build = () => mirrored({ mirrors: [{ model: 'gpt-4o', to: 'gpt-4o-canery' }] });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/mirrors\[0\]\.to: unknown model group `gpt-4o-canery`.*gpt-4o-canary/);
  });

  it('rejects a group mirrored to itself', () => {
    expect(() => mirrored({ mirrors: [{ model: 'gpt-4o', to: 'gpt-4o' }] })).toThrow(
      /mirrors\[0\]: a model group cannot mirror to itself/,
    );
  });

  it('rejects a sample_rate outside 0..1', () => {
    expect(() => mirrored({ mirrors: [{ ...MIRROR, sample_rate: 1.5 }] })).toThrow(/mirrors.*sample_rate/);
  });
});
