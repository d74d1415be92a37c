import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { InternalServerError, Router, type RouterSettings, type RoutingStrategy } from '../../src/index.js';
import { seededRandom } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock();

/** Always the candidate with this id: makes a group's strategy visible in who serves. */
const pinned = (id: string): RoutingStrategy => ({
  name: `pinned-${id}`,
  select: (candidates) => candidates.find((d) => d.id === id),
});

const ask = async (router: Router, model: string) =>
  (await router.acompletion({ model, messages: USER }))._hidden_params.model_id;

async function serve(router: Router, model: string, calls: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < calls; i++) ids.push(await ask(router, model));
  return ids;
}

/** Two models of two deployments each: `chat` (chat-fast, chat-slow) and `code` (code-fast, code-slow). */
/** How long the slow deployments take: far more than a fast call can, even on a loaded machine. */
const SLOW_MS = 200;

function twoModels() {
  mock.setBehavior('/chat-slow', { delayMs: SLOW_MS });
  mock.setBehavior('/code-slow', { delayMs: SLOW_MS });
  return [
    deployment(mock, 'chat-fast', {}, 'chat'),
    deployment(mock, 'chat-slow', {}, 'chat'),
    deployment(mock, 'code-fast', {}, 'code'),
    deployment(mock, 'code-slow', {}, 'code'),
  ];
}

const problemOf = (build: () => unknown): string => {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('routing groups', () => {
  it('routes each group’s models with the group’s strategy, and every other model with the top-level one', async () => {
    const router = new Router(twoModels(), {
      routing_strategy: pinned('chat-slow'),
      routing_groups: [{ group_name: 'coding', models: ['code'], routing_strategy: pinned('code-fast') }],
    });
    const chat = await serve(router, 'chat', 3);
    const code = await serve(router, 'code', 3);
    await router.close();
    expect(chat).toEqual(['chat-slow', 'chat-slow', 'chat-slow']);
    expect(code).toEqual(['code-fast', 'code-fast', 'code-fast']);
  });

  it('gives a group without its own routing_strategy the top-level one', async () => {
    const router = new Router(twoModels(), {
      routing_strategy: pinned('code-slow'),
      routing_groups: [{ group_name: 'coding', models: ['code'] }],
    });
    expect(await ask(router, 'code')).toBe('code-slow');
    await router.close();
  });

  it('gives two groups with the same strategy their own args', async () => {
    mock.setBehavior('/chat-slow', { delayMs: 150 });
    mock.setBehavior('/code-slow', { delayMs: 150 });
    const list = [
      deployment(mock, 'chat-fast', {}, 'chat'),
      deployment(mock, 'chat-slow', {}, 'chat'),
      deployment(mock, 'code-fast', {}, 'code'),
      deployment(mock, 'code-slow', {}, 'code'),
    ];
    const router = new Router(
      list,
      {
        routing_groups: [
          { group_name: 'strict', models: ['chat'], routing_strategy: 'latency-based-routing' },
          {
            group_name: 'lenient',
            models: ['code'],
            routing_strategy: 'latency-based-routing',
            routing_strategy_args: { lowest_latency_buffer: 1_000 },
          },
        ],
      },
      { random: seededRandom(3) },
    );
    await serve(router, 'chat', 16);
    await serve(router, 'code', 16);
    await router.close();
    // strict: the slow one gets its trial call only; lenient: both are within the buffer and share
    expect(mock.hits('/chat-slow/')).toBe(1);
    expect(mock.hits('/code-slow/')).toBeGreaterThan(3);
  });

  it('fails at construction when a model is in two groups, naming the model and both groups', () => {
    const message = problemOf(
      () =>
        new Router(twoModels(), {
          routing_groups: [
            { group_name: 'fast', models: ['chat', 'code'], routing_strategy: 'least-busy' },
            { group_name: 'cheap', models: ['code'], routing_strategy: 'cost-based-routing' },
          ],
        }),
    );
    expect(message).toBe(
      'Invalid router settings: routing_groups[1].models: model `code` is in two routing groups, `fast` (routing_groups[0]) and `cheap` (routing_groups[1]); a model may be in at most one',
    );
  });

  it('reserves the group name default for the models outside every group', () => {
    const message = problemOf(
      () => new Router(twoModels(), { routing_groups: [{ group_name: 'default', models: ['chat'] }] }),
    );
    expect(message).toBe(
      'Invalid router settings: routing_groups[0].group_name: `default` is reserved for the models outside every group',
    );
  });

  it('rejects two groups of one name', () => {
    const message = problemOf(
      () =>
        new Router(twoModels(), {
          routing_groups: [
            { group_name: 'g', models: ['chat'] },
            { group_name: 'g', models: ['code'] },
          ],
        }),
    );
    expect(message).toBe(
      'Invalid router settings: routing_groups[1].group_name: `g` is already the name of routing_groups[0]',
    );
  });

  it('applies weighted failover only to groups routed with simple-shuffle', async () => {
    // every deployment fails once: with weighted failover a call never goes back to a failed one
    mock.setBehavior('/chat-fast', { status: 500, failTimes: 1 });
    mock.setBehavior('/code-fast', { status: 500, failTimes: 1 });
    const list = [deployment(mock, 'chat-fast', {}, 'chat'), deployment(mock, 'code-fast', {}, 'code')];
    const router = new Router(list, {
      enable_weighted_failover: true,
      num_retries: 1,
      disable_cooldowns: true,
      routing_groups: [{ group_name: 'busy', models: ['code'], routing_strategy: 'least-busy' }],
    });
    const chat = await router.acompletion({ model: 'chat', messages: USER }).catch((e: unknown) => e);
    const code = await ask(router, 'code');
    await router.close();
    // chat (simple-shuffle, weighted failover): its only deployment failed and is never retried
    expect(chat).toBeInstanceOf(InternalServerError);
    expect(mock.hits('/chat-fast/')).toBe(1);
    // code (least-busy): an ordinary retry on the same deployment serves
    expect(code).toBe('code-fast');
    expect(mock.hits('/code-fast/')).toBe(2);
  });
});

describe('updating routing groups', () => {
  const latencyGroups: RouterSettings['routing_groups'] = [
    { group_name: 'measured', models: ['code'], routing_strategy: 'latency-based-routing' },
  ];

  /** A router whose `code` group (grouped) and `chat` model (default group) both learned their fast deployment. */
  async function trained() {
    const router = new Router(
      twoModels(),
      { routing_strategy: 'latency-based-routing', routing_groups: latencyGroups },
      { random: seededRandom(4) },
    );
    await serve(router, 'chat', 4);
    await serve(router, 'code', 4);
    mock.reset();
    mock.setBehavior('/chat-slow', { delayMs: SLOW_MS });
    mock.setBehavior('/code-slow', { delayMs: SLOW_MS });
    return router;
  }

  it('starts the groups’ strategies afresh, and only theirs', async () => {
    const router = await trained();
    router.updateSettings({ routing_groups: latencyGroups });
    await serve(router, 'chat', 4);
    await serve(router, 'code', 4);
    await router.close();
    // the group forgot its latencies: both of its deployments are tried again, once each
    expect(mock.hits('/code-slow/')).toBe(1);
    expect(mock.hits('/code-fast/')).toBe(3);
    // the default group kept what it learned
    expect(mock.hits('/chat-slow/')).toBe(0);
  });

  it('keeps what the groups learned through other changes', async () => {
    const router = await trained();
    router.updateSettings({ num_retries: 1 });
    router.addDeployment(deployment(mock, 'other', {}, 'other'));
    await serve(router, 'code', 4);
    await router.close();
    expect(mock.hits('/code-slow/')).toBe(0);
  });

  it('changes nothing when the update is invalid', async () => {
    const router = new Router(twoModels(), {
      routing_groups: [{ group_name: 'coding', models: ['code'], routing_strategy: pinned('code-slow') }],
    });
    expect(() =>
      router.updateSettings({
        routing_groups: [
          { group_name: 'a', models: ['code'] },
          { group_name: 'b', models: ['code'] },
        ],
      }),
    ).toThrow('model `code` is in two routing groups, `a` (routing_groups[0]) and `b` (routing_groups[1])');
    expect(await ask(router, 'code')).toBe('code-slow');
    await router.close();
  });

  it('moves a model into a new group at once', async () => {
    const router = new Router(twoModels(), { routing_strategy: pinned('chat-fast') });
    expect(await ask(router, 'chat')).toBe('chat-fast');
    router.updateSettings({
      routing_groups: [{ group_name: 'slow', models: ['chat'], routing_strategy: pinned('chat-slow') }],
    });
    expect(await ask(router, 'chat')).toBe('chat-slow');
    await router.close();
  });
});
