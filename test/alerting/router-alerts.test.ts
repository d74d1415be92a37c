import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AlertEvent, ConfigError, type Logger, Router, type RouterSettings } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { deployment, firstChoice, USER } from '../resilience/helpers.js';
import { startWebhookSink, type WebhookSink } from './webhook-sink.js';

const mock = useMock();
let sink: WebhookSink;
beforeEach(async () => {
  sink = await startWebhookSink();
});
afterEach(() => sink.close());

const RAW_KEY = 'key-RAWSECRET-abcdefgh1234';

/** A router alerting to the sink, flushing every 20 ms unless told otherwise; its alerts and logs recorded. */
function alertingRouter(
  names: string[],
  settings: RouterSettings = {},
  alerting: NonNullable<RouterSettings['alerting_config']> = {},
) {
  const logs: string[] = [];
  const log = (message: string, fields?: unknown) =>
    void logs.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const router = new Router(
    names.map((n) => deployment(mock, n, { api_key: RAW_KEY })),
    {
      ...settings,
      alerting_config: { webhook_url: sink.url, flush_interval: 0.02, alerting_threshold: 1, ...alerting },
    },
    { random: firstChoice, logger },
  );
  const alerts: AlertEvent[] = [];
  router.on('alert', (a) => alerts.push(a));
  return { router, alerts, logs };
}

const ask = (router: Router) => router.acompletion({ model: 'gpt-4o', messages: USER });
const askStream = (router: Router) => router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });

const durationOf = (line: string) => Number(/duration_ms=(\d+)/.exec(line)?.[1]);

describe('slow_response', () => {
  it('reaches the webhook as one line naming the type, model group, deployment id and duration', async () => {
    mock.setBehavior('/slow', { delayMs: 120 });
    const { router, alerts } = alertingRouter(['slow'], {}, { alerting_threshold: 0.05 });
    await ask(router);
    await sink.waitForBodies(1);
    await router.close();
    const [line] = sink.lines();
    expect(line).toMatch(
      /^\[slow_response\] model_group=gpt-4o model_id=slow duration_ms=\d+ threshold_ms=50 attempts=1$/,
    );
    expect(durationOf(line!)).toBeGreaterThanOrEqual(120);
    expect(alerts).toEqual([
      expect.objectContaining({ type: 'slow_response', model_id: 'slow', threshold_ms: 50, text: line }),
    ]);
  });

  it('is not raised for a call within the threshold', async () => {
    const { router, alerts } = alertingRouter(['a'], {}, { alerting_threshold: 5 });
    await ask(router);
    await router.close();
    expect(alerts).toEqual([]);
    expect(sink.bodies).toEqual([]);
  });

  it('measures a call from its start, retries included, not its last attempt alone', async () => {
    mock.setBehavior('/a', { status: 500, delayMs: 80 });
    mock.setBehavior('/b', { delayMs: 40 });
    const { router, alerts } = alertingRouter(['a', 'b'], { allowed_fails: 10 }, { alerting_threshold: 0.1 });
    await ask(router);
    await router.close();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'slow_response', model_id: 'b', attempts: 2 });
    expect(alerts[0]!.duration_ms).toBeGreaterThanOrEqual(120);
    expect(alerts[0]!.failed_attempts).toEqual([expect.objectContaining({ model_id: 'a', status: 500 })]);
  });

  it('measures a stream until its first chunk: a slow start alerts, a long steady stream does not', async () => {
    mock.setBehavior('/a', { delayMs: 250 });
    const slow = alertingRouter(['a'], {}, { alerting_threshold: 0.15 });
    for await (const _ of await askStream(slow.router)) {
      // read to the end
    }
    await slow.router.close();
    expect(slow.alerts).toEqual([expect.objectContaining({ type: 'slow_response', stream: true })]);

    // about 60 ms to the first chunk, over 400 ms to the end
    mock.setBehavior('/a', {
      content: 'one two three four five six seven eight nine ten eleven twelve',
      stream: { chunkDelayMs: 60 },
    });
    const steady = alertingRouter(['a'], {}, { alerting_threshold: 0.15 });
    const started = performance.now();
    for await (const _ of await askStream(steady.router)) {
      // read to the end
    }
    const totalMs = performance.now() - started;
    await steady.router.close();
    expect(totalMs).toBeGreaterThan(150);
    expect(steady.alerts).toEqual([]);
  });
});

describe('llm_exception', () => {
  it('is raised once per failed call, after its retries, with every attempt listed', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router, alerts } = alertingRouter(['a', 'b', 'c'], { num_retries: 2, allowed_fails: 10 });
    const error = await ask(router).catch((e: unknown) => e);
    await sink.waitForBodies(1);
    await router.close();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'llm_exception', model_group: 'gpt-4o', attempts: 3, error });
    expect(alerts[0]!.failed_attempts.map((f) => f.model_id).sort()).toEqual(['a', 'b', 'c']);
    const lines = sink.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[llm_exception\] model_group=gpt-4o model_id=[abc] duration_ms=\d+ attempts=3 error=InternalServerError\(500\) ".*" failed_attempts=\[[abc] InternalServerError\(500\), [abc] InternalServerError\(500\), [abc] InternalServerError\(500\)\]$/,
    );
  });

  it('is not raised for a call that a retry saved', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router, alerts } = alertingRouter(['a', 'b'], { allowed_fails: 10 });
    await ask(router);
    await router.close();
    expect(alerts).toEqual([]);
  });

  it('is raised once after the fallbacks failed too, naming the requested model and the last group', async () => {
    mock.setBehavior('/', { status: 500 });
    const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'x', {}, 'claude')],
      {
        num_retries: 0,
        fallbacks: [{ 'gpt-4o': ['claude'] }],
        alerting_config: { webhook_url: sink.url, flush_interval: 0.02 },
      },
      { logger },
    );
    const alerts: AlertEvent[] = [];
    router.on('alert', (a) => alerts.push(a));
    await ask(router).catch(() => undefined);
    await sink.waitForBodies(1);
    await router.close();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ model: 'gpt-4o', model_group: 'claude', model_id: 'x', attempts: 2 });
    expect(sink.lines()[0]).toContain('model_group=claude model_id=x duration_ms=');
    expect(sink.lines()[0]).toContain(' model=gpt-4o ');
  });

  it('is raised when a stream fails after its first chunk (such a stream is never retried)', async () => {
    mock.setBehavior('/a', { content: 'one two three four', stream: { errorAfter: 2 } });
    const { router, alerts } = alertingRouter(['a']);
    const stream = await askStream(router);
    await (async () => {
      for await (const _ of stream) {
        // read until it fails
      }
    })().catch(() => undefined);
    await router.close();
    expect(alerts).toEqual([
      expect.objectContaining({ type: 'llm_exception', stream: true, model_id: 'a', attempts: 1 }),
    ]);
    expect(alerts[0]!.failed_attempts).toHaveLength(1);
  });

  it('is not raised when the caller aborts', async () => {
    mock.setBehavior('/a', { delayMs: 500 });
    const { router, alerts } = alertingRouter(['a']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await router
      .acompletion({ model: 'gpt-4o', messages: USER }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await router.close();
    expect((error as Error).name).toBe('AbortError');
    expect(alerts).toEqual([]);
  });
});

describe('webhook delivery from the router', () => {
  it('batches the alerts of one flush_interval into one POST', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router } = alertingRouter(
      ['a'],
      { num_retries: 0, disable_cooldowns: true },
      { flush_interval: 0.15 },
    );
    await Promise.all([1, 2, 3].map(() => ask(router).catch(() => undefined)));
    await sink.waitForBodies(1);
    await router.close();
    expect(sink.bodies).toHaveLength(1);
    expect(sink.lines()).toHaveLength(3);
  });

  it('a hanging webhook does not slow calls', async () => {
    sink.setMode('hang');
    const { router } = alertingRouter(['a'], {}, { alerting_threshold: 0, flush_interval: 0.01 });
    await ask(router); // warm the connection
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await ask(router);
      latencies.push(performance.now() - started);
      if (i === 0) await sink.waitForBodies(1); // from here on a POST hangs while calls run
    }
    sink.setMode({ status: 200 });
    sink.release();
    await router.close();
    expect(Math.max(...latencies)).toBeLessThan(250);
  });

  it('close() delivers the alerts not yet flushed', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router } = alertingRouter(['a'], { num_retries: 0 }, { flush_interval: 60 });
    await ask(router).catch(() => undefined);
    expect(sink.bodies).toEqual([]);
    await router.close();
    expect(sink.lines()).toEqual([
      expect.stringMatching(/^\[llm_exception\] model_group=gpt-4o model_id=a /),
    ]);
  });

  it('can be turned on at runtime with updateSettings', async () => {
    mock.setBehavior('/', { status: 500 });
    const router = new Router([deployment(mock, 'a')], { num_retries: 0 });
    const alerts: AlertEvent[] = [];
    router.on('alert', (a) => alerts.push(a));
    await ask(router).catch(() => undefined);
    router.updateSettings({ alerting_config: { webhook_url: sink.url, flush_interval: 0.02 } });
    await ask(router).catch(() => undefined);
    await router.close();
    expect(alerts).toHaveLength(1);
    expect(sink.lines()).toHaveLength(1);
  });
});

describe('secrets in alerts and logs', () => {
  it('the raw api key appears in no alert body, alert event or log line, even when the provider echoes it', async () => {
    mock.setBehavior('/', { status: 401, error: { message: `Incorrect API key provided: ${RAW_KEY}` } });
    sink.setMode({ status: 500 });
    const { router, alerts, logs } = alertingRouter(
      ['a', 'b'],
      { allowed_fails: 10 },
      { flush_interval: 0.01 },
    );
    await ask(router).catch(() => undefined);
    await sink.waitForBodies(1);
    sink.setMode({ status: 200 });
    await sink.waitForBodies(2);
    await router.close();
    expect(logs.some((l) => l.startsWith('alert webhook'))).toBe(true);
    expect(sink.lines().some((l) => l.includes('Incorrect API key provided'))).toBe(true);
    const everything = [
      JSON.stringify(sink.bodies),
      ...alerts.map((a) => a.text),
      JSON.stringify(alerts),
      ...logs,
    ];
    for (const text of everything) expect(text).not.toContain(RAW_KEY);
    // a chat webhook's path is its secret: logs name the origin only
    for (const line of logs) expect(line).not.toContain('hook-token-XYZ');
  });
});

describe('alerting_config settings', () => {
  it('rejects a webhook_url that is not an http(s) URL, without echoing it', () => {
    const make = () =>
      new Router([deployment(mock, 'a')], { alerting_config: { webhook_url: 'ftp://hooks/T0/secret-path' } });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow('alerting_config.webhook_url: expected an http:// or https:// URL');
    expect(() => make()).not.toThrow(/secret-path/);
  });

  it('rejects flush_interval: 0 (it would flush without pause)', () => {
    expect(() => new Router([deployment(mock, 'a')], { alerting_config: { flush_interval: 0 } })).toThrow(
      'alerting_config.flush_interval',
    );
  });
});
