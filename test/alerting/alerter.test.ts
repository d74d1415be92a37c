import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent, AlertingSettings } from '../../src/alerting/alert.js';
import { Alerter, type AlerterOptions } from '../../src/alerting/alerter.js';
import { llmException } from '../../src/alerting/detect.js';
import { InternalServerError, type Logger } from '../../src/index.js';
import { startWebhookSink, type WebhookSink } from './webhook-sink.js';

let sink: WebhookSink;
beforeEach(async () => {
  sink = await startWebhookSink();
});
afterEach(() => sink.close());

const alertFor = (id: string): AlertEvent =>
  llmException(
    { model: 'gpt-4o', group: 'gpt-4o', modelId: id, stream: false, attempts: 1, failures: [] },
    new InternalServerError('upstream failed', { modelId: id }),
    10,
    0,
  );

function alerter(settings: AlertingSettings | undefined, options: AlerterOptions = {}) {
  const events: AlertEvent[] = [];
  const logs: string[] = [];
  const log = (message: string) => void logs.push(message);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const instance = new Alerter(
    { settings: () => settings, logger: () => logger, emit: (a) => void events.push(a), secrets: () => [] },
    options,
  );
  return { alerter: instance, events, logs };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Alerter delivery', () => {
  it('sends the alerts raised within one flush_interval in one POST, one line each', async () => {
    const { alerter: a } = alerter({ webhook_url: sink.url, flush_interval: 0.05 });
    for (const id of ['a', 'b', 'c']) a.raise(alertFor(id));
    await sink.waitForBodies(1);
    await sleep(80);
    await a.close();
    expect(sink.bodies).toHaveLength(1);
    expect(sink.lines().map((l) => l.split(' ')[2])).toEqual(['model_id=a', 'model_id=b', 'model_id=c']);
  });

  it('emits the alert event at once, before any delivery', () => {
    const { alerter: a, events } = alerter({ webhook_url: sink.url, flush_interval: 60 });
    a.raise(alertFor('a'));
    expect(events.map((e) => e.model_id)).toEqual(['a']);
    expect(sink.bodies).toHaveLength(0);
    return a.close();
  });

  it('without webhook_url, raises events only and posts nothing', async () => {
    const { alerter: a, events } = alerter({ flush_interval: 0.01 });
    a.raise(alertFor('a'));
    await sleep(40);
    await a.close();
    expect(events).toHaveLength(1);
    expect(sink.bodies).toHaveLength(0);
  });

  it('retries a failing webhook with backoff, then delivers every alert once', async () => {
    sink.setMode({ status: 503 });
    const { alerter: a, logs } = alerter({ webhook_url: sink.url, flush_interval: 0.02 });
    a.raise(alertFor('a'));
    a.raise(alertFor('b'));
    await sink.waitForBodies(2);
    sink.setMode({ status: 200 });
    await sink.waitForBodies(3);
    await a.close();
    expect(sink.bodies.every((b) => b.text === sink.bodies[0]?.text)).toBe(true);
    expect(logs[0]).toMatch(
      /^alert webhook http:\/\/127\.0\.0\.1:\d+ failed \(status 503\); 2 alerts kept, next try in 40 ms$/,
    );
  });

  it('keeps at most its capacity while the webhook is down, and reports the dropped count in the next delivered batch', async () => {
    sink.setMode({ status: 500 });
    const { alerter: a, logs } = alerter({ webhook_url: sink.url, flush_interval: 0.02 }, { capacity: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) a.raise(alertFor(id));
    await sink.waitForBodies(1);
    sink.setMode({ status: 200 });
    await sink.waitForBodies(2);
    await a.close();
    const delivered = sink.bodies[1]!.text.split('\n');
    expect(delivered[0]).toBe(
      '[alerts_dropped] 2 alerts were dropped: the webhook did not take them and the buffer (3) was full',
    );
    expect(delivered.slice(1).map((l) => l.split(' ')[2])).toEqual([
      'model_id=c',
      'model_id=d',
      'model_id=e',
    ]);
    expect(logs).toContain('alert buffer full (3 alerts): dropping the oldest until the webhook takes them');
  });

  it('drops a batch the webhook refuses with a 4xx (never retried) and counts it', async () => {
    sink.setMode({ status: 400 });
    const { alerter: a } = alerter({ webhook_url: sink.url, flush_interval: 0.02 });
    a.raise(alertFor('a'));
    await sink.waitForBodies(1);
    sink.setMode({ status: 200 });
    a.raise(alertFor('b'));
    await sink.waitForBodies(2);
    await a.close();
    expect(sink.bodies[1]!.text.split('\n').map((l) => l.split(' ')[0])).toEqual([
      '[alerts_dropped]',
      '[llm_exception]',
    ]);
    expect(sink.bodies[1]!.text).toContain('model_id=b');
  });

  it('cuts a hanging POST after requestTimeoutMs and delivers on the next try', async () => {
    sink.setMode('hang');
    const { alerter: a, logs } = alerter(
      { webhook_url: sink.url, flush_interval: 0.02 },
      { requestTimeoutMs: 60 },
    );
    a.raise(alertFor('a'));
    await sink.waitForBodies(1);
    sink.setMode({ status: 200 });
    await sink.waitForBodies(2);
    await a.close();
    expect(logs[0]).toContain('failed (timeout); 1 alerts kept');
  });
});

describe('Alerter close()', () => {
  it('delivers what is left at once, without waiting for the flush interval', async () => {
    const { alerter: a } = alerter({ webhook_url: sink.url, flush_interval: 60 });
    a.raise(alertFor('a'));
    const started = performance.now();
    await a.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sink.lines()).toHaveLength(1);
  });

  it('gives up on a hanging webhook within closeTimeoutMs and says what was lost', async () => {
    sink.setMode('hang');
    const { alerter: a, logs } = alerter(
      { webhook_url: sink.url, flush_interval: 60 },
      { closeTimeoutMs: 80 },
    );
    a.raise(alertFor('a'));
    const started = performance.now();
    await a.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(logs.at(-1)).toBe('1 alert was not delivered before close()');
  });

  it('raises events but queues nothing after close()', async () => {
    const { alerter: a, events } = alerter({ webhook_url: sink.url, flush_interval: 0.01 });
    await a.close();
    a.raise(alertFor('a'));
    await sleep(30);
    expect(events).toHaveLength(1);
    expect(sink.bodies).toHaveLength(0);
  });
});

describe('Alerter timers', () => {
  it('never keeps the process alive: its flush timer is unref()ed', async () => {
    const { alerter: a } = alerter({ webhook_url: sink.url, flush_interval: 60 });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    a.raise(alertFor('a'));
    expect(timers()).toBe(before);
    await a.close();
  });
});
