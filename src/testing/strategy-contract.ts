import { RouterError } from '../errors/router-error.js';
import { MemoryStore } from '../stores/memory-store.js';
import type { MaybePromise, Store } from '../stores/store.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import type { CallOutcome, RandomSource, RoutingStrategy, SelectionContext } from '../strategies/strategy.js';
import type { Deployment, DeploymentEntry } from '../types/index.js';
import { seededRandom } from './seeded-random.js';
import { testDeployment } from './test-deployment.js';
import { vitestApi } from './vitest-api.js';

/** What `strategyContract` passes to `create`: the router's dependencies of a strategy, and its model list. */
export interface StrategyContractDeps {
  /** A seeded random source: the same seed gives the same picks. */
  random: RandomSource;
  /** A fake clock in milliseconds, moved forward 10 ms per pick in the load test. */
  now: () => number;
  /** A fresh in-memory store on that clock. */
  store: Store;
  /** The model list the router would hold (what a custom strategy chooses from). */
  modelList: readonly DeploymentEntry[];
}

/** How `strategyContract` builds and treats the strategy under test. */
export interface StrategyContractOptions {
  /** Names the suite: `<name> (strategy contract)`. */
  name: string;
  /**
   * Builds a fresh strategy for each test from the dependencies given: a `RoutingStrategy`, or a custom
   * strategy object (`getAvailableDeployment`), which is run the way the router runs one.
   */
  create(deps: StrategyContractDeps): MaybePromise<RoutingStrategy | CustomRoutingStrategy>;
  /**
   * The strategy picks the same deployment for the same state by design (lowest latency, least busy):
   * the load-spreading test is skipped.
   * @default false
   */
  deterministic?: boolean;
}

const GROUP = 'contract-model';
const SOLO = 'contract-solo';
/** Built afresh for each use: the router rebuilds deployments on every config change. */
const groupOfThree = () =>
  ['a', 'b', 'c'].map((id) => testDeployment({ id, model_name: GROUP, svc_params: { api_key: `sk-${id}` } }));
const solo = () => testDeployment({ id: 'solo', model_name: SOLO });
const stranger = () => testDeployment({ id: 'stranger', model_name: 'contract-other' });
const contextFor = (model: string): SelectionContext => ({
  model,
  request: { model, messages: [{ role: 'user', content: 'hello' }] },
});

/**
 * The behaviour every `RoutingStrategy` must have, as a vitest suite: it picks only among the
 * candidates it is given (the same objects), the only one of a group of one, deterministically with a
 * seeded random source; it survives outcomes it did not expect; and unless `deterministic`, it spreads
 * 1,000 picks over 3 equal candidates with at least 15% each.
 * @example strategyContract({ name: 'simple-shuffle', create: ({ random }) => simpleShuffle(random) });
 * @throws when called outside a vitest run (vitest is an optional peer dependency).
 */
export function strategyContract(options: StrategyContractOptions): void {
  const { describe, it, expect } = vitestApi('strategyContract');
  const outcome = (
    deployment: Deployment,
    ok: boolean,
    latencyMs: number,
    totalTokens?: number,
  ): CallOutcome => ({
    deployment,
    model: deployment.modelName,
    ok,
    latencyMs,
    stream: false,
    totalTokens,
  });
  const { name, create, deterministic = false } = options;

  /** A strategy on fresh dependencies: its clock, and a helper that picks and reports the outcome. */
  const setUp = async (seed = 1) => {
    let clock = 1_000_000;
    const now = () => clock;
    const modelList = [...groupOfThree(), solo()].map((d) => d.entry);
    const created = await create({
      random: seededRandom(seed),
      now,
      store: new MemoryStore({ now }),
      modelList,
    });
    const strategy = 'select' in created ? created : customStrategy(created);
    // choosing nothing may also be a RouterError that says why (the custom-object adapter does that)
    const choose = async (candidates: readonly Deployment[], model = GROUP) => {
      try {
        return await strategy.select(candidates, contextFor(model));
      } catch (error) {
        if (RouterError.isInstance(error)) return undefined;
        throw error;
      }
    };
    const pick = async (candidates: readonly Deployment[], model = GROUP) => {
      const chosen = await choose(candidates, model);
      clock += 10;
      if (chosen) strategy.onOutcome?.(outcome(chosen, true, 100, 20));
      return chosen;
    };
    return { strategy, pick, choose };
  };

  describe(`${name} (strategy contract)`, () => {
    it('returns the only candidate of a group of one', async () => {
      const { pick } = await setUp();
      const only = solo();
      expect(await pick([only], SOLO)).toBe(only);
    });

    it('returns one of the candidates, the same object, or undefined', async () => {
      const { pick } = await setUp();
      const candidates = groupOfThree();
      for (let i = 0; i < 100; i++) expect([undefined, ...candidates]).toContain(await pick(candidates));
    });

    it('returns undefined when there is no candidate', async () => {
      const { choose } = await setUp();
      expect(await choose([])).toBeUndefined();
    });

    it('chooses only among the candidates given, never one it saw earlier', async () => {
      const { pick } = await setUp();
      for (let i = 0; i < 30; i++) await pick(groupOfThree());
      const [, onlyB] = groupOfThree();
      for (let i = 0; i < 30; i++) expect([undefined, onlyB]).toContain(await pick([onlyB!]));
    });

    it('picks the same sequence again with the same seed', async () => {
      const sequence = async () => {
        const { pick } = await setUp(7);
        const candidates = groupOfThree();
        const ids: Array<string | undefined> = [];
        for (let i = 0; i < 50; i++) ids.push((await pick(candidates))?.id);
        return ids;
      };
      expect(await sequence()).toEqual(await sequence());
    });

    it('takes an outcome for a deployment it has never seen', async () => {
      const { strategy, pick } = await setUp();
      strategy.onOutcome?.(outcome(stranger(), true, 5, 10));
      const candidates = groupOfThree();
      expect([undefined, ...candidates]).toContain(await pick(candidates));
    });

    it('takes failed outcomes and still chooses among the candidates', async () => {
      const { strategy, pick } = await setUp();
      const candidates = groupOfThree();
      for (const deployment of candidates) strategy.onOutcome?.(outcome(deployment, false, 0));
      expect([undefined, ...candidates]).toContain(await pick(candidates));
    });

    it.skipIf(deterministic)('spreads 1,000 picks over 3 equal candidates, at least 15% each', async () => {
      const { pick } = await setUp();
      const candidates = groupOfThree();
      const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
      for (let i = 0; i < 1_000; i++) {
        const chosen = await pick(candidates);
        if (chosen) counts[chosen.id] = (counts[chosen.id] ?? 0) + 1;
      }
      for (const id of ['a', 'b', 'c']) {
        expect(counts[id], `picks per deployment: ${JSON.stringify(counts)}`).toBeGreaterThanOrEqual(150);
      }
    });
  });
}
