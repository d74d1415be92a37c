import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LiveHistogram } from '../../src/observability/live-histogram.js';

const BUCKETS = [0.1, 0.5, 1];
const OBSERVED: Array<[Record<'route' | 'method', string>, number]> = [
  [{ route: '/v1/chat/completions', method: 'POST' }, 0.05],
  [{ route: '/v1/chat/completions', method: 'POST' }, 0.1],
  [{ route: '/v1/chat/completions', method: 'POST' }, 0.7],
  [{ route: '/v1/embeddings', method: 'POST' }, 3],
  // one route under two methods: two series sharing their first label
  [{ route: '/v1/chat/completions', method: 'GET' }, 0.3],
  [{ route: '/v1/chat/completions', method: 'POST' }, 2],
];

describe('LiveHistogram', () => {
  it("exports exactly what prom-client's Histogram exports for the same observations", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'Help text.',
      labelNames: ['route', 'method'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const live = new LiveHistogram('h_seconds', 'Help text.', ['route', 'method'], BUCKETS, ours);
    for (const [labels, value] of OBSERVED) {
      reference.observe(labels, value);
      live.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('starts over after a reset', async () => {
    const registry = new Registry();
    const live = new LiveHistogram('h_seconds', 'Help text.', ['route'], BUCKETS, registry);
    live.observe({ route: '/a' }, 0.2);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('h_seconds_count');
  });
});
