import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore, Router } from '../../src/index.js';
import { type MockProvider, startMockProvider, storeContract } from '../../src/testing/index.js';
import { ask, deployment, firstChoice } from '../resilience/helpers.js';
import { canStartRedisServer, type LocalCluster, startLocalCluster } from './local-cluster.js';

// a cluster of three redis-server processes on local ports, started for this file only
describe.runIf(canStartRedisServer())('on a Redis Cluster', () => {
  let cluster: LocalCluster;
  let mock: MockProvider;
  beforeAll(async () => {
    [cluster, mock] = await Promise.all([startLocalCluster(), startMockProvider()]);
  });
  afterAll(async () => {
    await Promise.all([cluster?.stop(), mock?.close()]);
  });

  storeContract({
    name: 'RedisStore on a cluster',
    create: () => new RedisStore({ cluster: { startupNodes: cluster.nodes }, namespace: 'contract' }),
    realClock: true,
  });

  it('keeps the cooldown keys of one group on one slot, and spreads groups over the nodes', async () => {
    const client = new Redis(cluster.nodes[0]!.port);
    const slotOf = (key: string) => client.call('CLUSTER', 'KEYSLOT', key) as Promise<number>;
    const group = await Promise.all(['a', 'b', 'c'].map((id) => slotOf(`ns:cooldown:{gpt-4o}:${id}`)));
    const groups = await Promise.all(
      ['gpt-4o', 'claude', 'gemini'].map((g) => slotOf(`ns:cooldown:{${g}}:a`)),
    );
    client.disconnect();
    expect(new Set(group).size).toBe(1);
    expect(new Set(groups).size).toBe(3);
  });

  it('lets two routers built from redis_startup_nodes agree on a cooldown', async () => {
    mock.setBehavior('/a', { status: 500 });
    const settings = { redis_startup_nodes: cluster.nodes, cache_kwargs: { namespace: 'agree' } };
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const one = new Router(list, { ...settings, allowed_fails: 0 }, { random: firstChoice });
    const two = new Router(list, { ...settings, allowed_fails: 100 }, { random: firstChoice });
    await ask(one); // a fails: cooled on the cluster; b serves
    const served = await ask(two);
    await Promise.all([one.close(), two.close()]);
    expect(served._hidden_params.model_id).toBe('b');
    expect(served._hidden_params.attempts).toBe(1);
    expect(mock.hits('/a/')).toBe(1);
  });
});
