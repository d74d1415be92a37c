import { Router } from '@svc/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyMetrics } from '../../src/observability/proxy-metrics.js';
import { MASTER_KEY, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { parseSamples, type Sample, sampleValue } from './prometheus-text.js';

const USER_ID = 'user-obs-secret-42';
const json = { 'content-type': 'application/json' };

describe('GET /metrics after a known sequence of calls', () => {
  let t: TestProxy;
  let key: string;
  let samples: Sample[];
  let statuses: number[];

  const chat = async (content: string, model = 'gpt-4o') => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, ...json },
      body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
    });
    await res.text();
    return res.status;
  };

  beforeAll(async () => {
    t = await startTestProxy('postgres', {
      models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'backup')],
      router_settings: { num_retries: 0, fallbacks: [{ 'gpt-4o': ['backup'] }], cache_responses: true },
    });
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, ...json },
      body: JSON.stringify({ user_id: USER_ID, key_alias: 'obs-key' }),
    });
    key = ((await generated.json()) as { key: string }).key;

    statuses = [];
    statuses.push(await chat('one')); // success on east
    statuses.push(await chat('two')); // success on east
    statuses.push(await chat('one')); // cache hit (east's answer)
    t.mock.setBehavior('/east', { status: 500 });
    statuses.push(await chat('three')); // east fails, falls back to west
    t.mock.setBehavior('/west', { status: 500 });
    statuses.push(await chat('four', 'backup')); // west fails, no fallback: the caller gets the failure

    const scrape = await fetch(`${t.url}/metrics`, { headers: t.admin });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    samples = parseSamples(await scrape.text());
  });
  afterAll(() => t.close());

  const east = { model_group: 'gpt-4o', model_id: 'east', provider: 'openai' };
  const west = { model_group: 'backup', model_id: 'west', provider: 'openai' };

  it('the calls answered as planned', () => {
    expect(statuses).toEqual([200, 200, 200, 200, 500]);
  });

  it('counts upstream attempts per deployment by status class', () => {
    expect(sampleValue(samples, 'svc_requests_total', { ...east, status_class: '2xx' })).toBe(2);
    expect(sampleValue(samples, 'svc_requests_total', { ...east, status_class: '5xx' })).toBe(1);
    expect(sampleValue(samples, 'svc_requests_total', { ...west, status_class: '2xx' })).toBe(1);
    expect(sampleValue(samples, 'svc_requests_total', { ...west, status_class: '5xx' })).toBe(1);
  });

  it('counts failures by error class', () => {
    expect(sampleValue(samples, 'svc_errors_total', { ...east, error_type: 'InternalServerError' })).toBe(1);
    expect(sampleValue(samples, 'svc_errors_total', { ...west, error_type: 'InternalServerError' })).toBe(1);
  });

  it('counts the cache hit, the fallback and the attempt after a failure', () => {
    expect(sampleValue(samples, 'svc_cache_hits_total', east)).toBe(1);
    expect(
      sampleValue(samples, 'svc_fallbacks_total', { model_group: 'gpt-4o', fallback_group: 'backup' }),
    ).toBe(1);
    expect(sampleValue(samples, 'svc_retries_total', west)).toBe(1);
    expect(sampleValue(samples, 'svc_retries_total', east)).toBe(0);
  });

  it('observes latency of successful attempts, not of cache hits', () => {
    expect(sampleValue(samples, 'svc_request_duration_seconds_count', east)).toBe(2);
    expect(sampleValue(samples, 'svc_request_duration_seconds_count', west)).toBe(1);
  });

  it('counts tokens and spend of successful calls', () => {
    expect(sampleValue(samples, 'svc_tokens_total', { ...east, token_type: 'input' })).toBeGreaterThan(0);
    expect(sampleValue(samples, 'svc_spend_usd_total', east)).toBeGreaterThan(0);
    expect(sampleValue(samples, 'svc_in_flight_requests', east)).toBe(0);
  });

  it('counts spend rows dropped or refused by the database: none of these five', () => {
    expect(sampleValue(samples, 'svc_spend_logs_dropped_total', {})).toBe(0);
    expect(sampleValue(samples, 'svc_spend_logs_rejected_total', {})).toBe(0);
  });

  it('counts HTTP requests by route pattern and status class', () => {
    const route = { route: '/v1/chat/completions', method: 'POST' };
    expect(sampleValue(samples, 'svc_http_requests_total', { ...route, status_class: '2xx' })).toBe(4);
    expect(sampleValue(samples, 'svc_http_requests_total', { ...route, status_class: '5xx' })).toBe(1);
  });

  it('holds no key, user id or secret in any label', () => {
    const values = samples.flatMap((s) => Object.values(s.labels));
    const names = new Set(samples.flatMap((s) => Object.keys(s.labels)));
    for (const secret of [key, USER_ID, MASTER_KEY, 'sk-upstream-east-0000', 'obs-key'])
      expect(values.filter((v) => v.includes(secret))).toEqual([]);
    expect([...names].sort()).toEqual(
      [
        'error_type',
        'fallback_group',
        'le',
        'method',
        'model_group',
        'model_id',
        'provider',
        'route',
        'status_class',
        'token_type',
      ].sort(),
    );
  });
});

describe('GET /metrics access', () => {
  it('needs the master key by default', async () => {
    const t = await startTestProxy('postgres');
    try {
      expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${t.url}/metrics`, { headers: t.admin })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers without a key with metrics_public: true', async () => {
    const t = await startTestProxy('postgres', { general_settings: { metrics_public: true } });
    try {
      const res = await fetch(`${t.url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('svc_requests_total');
    } finally {
      await t.close();
    }
  });
});

describe('the spend writer in /metrics', () => {
  it('exports the rows it dropped and the rows the database refused, each from its own count', async () => {
    const router = new Router([
      {
        model_name: 'm',
        svc_params: { model: 'openai/gpt-4o', api_base: 'http://127.0.0.1:9/v1', api_key: 'sk' },
      },
    ]);
    const spend = { pending: 1, written: 5, failedFlushes: 4, dropped: 3, rejected: 2 };
    const samples = parseSamples(await createProxyMetrics({ router, spendStats: () => spend }).render());
    await router.close();
    expect(sampleValue(samples, 'svc_spend_logs_dropped_total', {})).toBe(3);
    expect(sampleValue(samples, 'svc_spend_logs_rejected_total', {})).toBe(2);
  });
});
