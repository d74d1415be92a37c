import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../harness.js';
import { adminPost, chat, type SharedPair, startSharedPair } from './shared-pair.js';

// Two proxies of one deployment in this process, sharing Redis (cooldowns, key rate limits) and
// Postgres (keys, teams, settings): what one learns or is told, the other acts on.
describe('two proxies on one Redis and one Postgres', () => {
  let pair: SharedPair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('skips a deployment the other proxy cooled', async () => {
    pair = await startSharedPair();
    const { a, b, mock } = pair;
    // 401 cools a deployment at once; the call itself is retried on `west` and succeeds
    mock.setBehavior('/east', { status: 401 });
    await eventually(async () => {
      expect((await chat(a)).status).toBe(200);
      expect(mock.hits('/east')).toBe(1);
    });
    for (let i = 0; i < 10; i++) expect((await chat(b)).status).toBe(200);
    expect(mock.hits('/east')).toBe(1);
  });

  it("holds one key's rpm_limit across both", async () => {
    pair = await startSharedPair();
    const { a, b } = pair;
    // a count straddling a minute boundary starts over: then the round is played again with a new key
    for (let round = 0; round < 2; round++) {
      const minute = Math.floor(Date.now() / 60_000);
      const { body } = await adminPost(a, '/key/generate', { rpm_limit: 4 });
      const headers = { authorization: `Bearer ${body.key}` };
      const statuses = await Promise.all([a, b, a, b, a, b].map((proxy) => chat(proxy, headers)));
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      const codes = statuses.map((s) => s.status).sort();
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
      return;
    }
  });

  it('puts a /config/update made on one in force on the other within a second', async () => {
    pair = await startSharedPair({ redis: false });
    const { a, b } = pair;
    const started = Date.now();
    const res = await adminPost(a, '/config/update', {
      router_settings: {
        num_retries: 7,
        routing_groups: [
          { group_name: 'latency', models: ['gpt-4o'], routing_strategy: 'latency-based-routing' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(a.router.settings.num_retries).toBe(7);
    await eventually(() => {
      expect(b.router.settings.num_retries).toBe(7);
      expect(b.router.settings.routing_groups?.[0]?.group_name).toBe('latency');
    }, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("refuses a team's key on the other proxy within a second of /team/block", async () => {
    pair = await startSharedPair({ redis: false });
    const { a, b } = pair;
    const team = await adminPost(a, '/team/new', { team_alias: 'blockable' });
    const { body } = await adminPost(a, '/key/generate', { team_id: team.body.team_id });
    const headers = { authorization: `Bearer ${body.key}` };
    // warm: b has the key and its team cached (key_cache_ttl is 10 s)
    expect((await chat(b, headers)).status).toBe(200);
    expect((await adminPost(a, '/team/block', { team_id: team.body.team_id })).status).toBe(200);
    await eventually(async () => expect((await chat(b, headers)).status).toBe(403), 1_000);
  });
});
