import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { KNOWN_PASS_THROUGH_KEYS, ROUTER_SVC_PARAM_KEYS } from '../../src/config/model-list-schema.js';
import { parseSettings } from '../../src/config/parse-settings.js';
import { SETTING_NAMES } from '../../src/config/settings-schema.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { Router } from '../../src/index.js';

// Fixed seed and bounded runs: the same inputs on every run, a few seconds in all.
const RUNS = { seed: 20_240_611, numRuns: 150 } as const;

const SECRET = 'sk-property-secret-0123456789';
const env = { SECRET_VAR: SECRET, NUM_VAR: '42', MODEL_VAR: 'openai/gpt-4o' };

const NESTED_SETTING_KEYS = [
  'ttl',
  'lowest_latency_buffer',
  'alerting_threshold',
  'flush_interval',
  'webhook_url',
  'group_name',
  'models',
  'TimeoutErrorRetries',
  'RateLimitErrorAllowedFails',
];
const UNSAFE = ['__proto__', 'constructor', 'prototype'];

const strategy = { asyncGetAvailableDeployment: async () => undefined };
const callback = { logSuccessEvent: () => {} };

const leaf = fc.oneof(
  fc.constantFrom<unknown>(
    1e7,
    2_147_483,
    2_147_484,
    -1,
    0,
    0.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    'os.environ/SECRET_VAR',
    'os.environ/UNSET_VAR',
    'os.environ/NUM_VAR',
    'os.environ/MODEL_VAR',
    'openai/gpt-4o',
    'gemini/gemini-2.5-flash',
    'constructor/x',
    '__proto__/x',
    '',
    'http://127.0.0.1:1/v1',
    'DEBUG',
    'simple-shuffle',
    strategy,
    callback,
    () => 'a function',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt({ min: -10n, max: 10n }),
);

/** Own, enumerable keys exactly as JSON.parse makes them (a `__proto__` key is a plain own key). */
function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const keyFrom = (known: readonly string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(...UNSAFE) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );

const recordOf = (keys: fc.Arbitrary<string>, values: fc.Arbitrary<unknown>) =>
  fc.array(fc.tuple(keys, values), { maxLength: 6 }).map(objectOf);

const ALL_KEYS = [
  ...SETTING_NAMES,
  ...NESTED_SETTING_KEYS,
  ...ROUTER_SVC_PARAM_KEYS,
  ...KNOWN_PASS_THROUGH_KEYS,
];
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('tree'), { maxLength: 3 }),
    recordOf(keyFrom(ALL_KEYS), tie('tree')),
  ),
}));

/** Makes an object hostile: sometimes a cycle back to it, sometimes a chain nested thousands deep. */
const hostile = (base: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(base, fc.constantFrom('none', 'none', 'cycle', 'deep'), fc.integer({ min: 50, max: 5000 }))
    .map(([value, kind, depth]) => {
      if (kind === 'cycle') value.extra_body = { back: value };
      if (kind === 'deep') {
        let chain: Record<string, unknown> = {};
        for (let i = 0; i < depth; i++) chain = { deeper: chain };
        value.extra_body = chain;
      }
      return value;
    });

const settingsArb = hostile(recordOf(keyFrom([...SETTING_NAMES, ...NESTED_SETTING_KEYS]), tree));
const svcParamsArb = hostile(
  fc
    .tuple(
      fc.constantFrom<unknown>('openai/gpt-4o', 'os.environ/MODEL_VAR', 'os.environ/SECRET_VAR', 'nope/x', 7),
      recordOf(keyFrom([...ROUTER_SVC_PARAM_KEYS, ...KNOWN_PASS_THROUGH_KEYS]), tree),
    )
    .map(([model, rest]) => objectOf([['model', model], ...Object.entries(rest)])),
);
const entryArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      model_name: fc.oneof(fc.constantFrom('gpt', 'b'), leaf),
      svc_params: svcParamsArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ model_name: leaf, svc_params: svcParamsArb, model_info: tree }) },
  { weight: 1, arbitrary: tree },
);
const modelListArb = fc.array(entryArb, { maxLength: 4 });

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype];
const baseline = PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort());

/**
 * Runs `build`: fine when it returns; when it throws, the error must be a ConfigError whose every problem
 * passes `namesAField`, that never prints an environment value; no prototype may change either way.
 */
function check(build: () => unknown, namesAField: (problem: string) => boolean): void {
  try {
    build();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) expect(namesAField(problem), problem).toBe(true);
    expect(error.message).not.toContain(SECRET);
  } finally {
    expect(PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort())).toEqual(baseline);
  }
}

const topKeys = (value: unknown): string[] =>
  value && typeof value === 'object' ? Object.keys(value).filter((k) => !UNSAFE.includes(k)) : [];

describe('config properties: every input is a valid parse or a ConfigError naming the field', () => {
  it('settings', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const keys = topKeys(settings);
        check(
          () => parseSettings(settings as never, env),
          (p) => keys.some((k) => p.includes(k)),
        );
      }),
      RUNS,
    );
  });

  it('model lists', () => {
    fc.assert(
      fc.property(modelListArb, (list) => {
        check(
          () => buildDeployments(list, {}, env),
          (p) => p.includes('model_list'),
        );
      }),
      RUNS,
    );
  });

  it('new Router(modelList, settings) (construction only, no calls)', () => {
    fc.assert(
      fc.property(modelListArb, settingsArb, (list, settings) => {
        const keys = topKeys(settings);
        check(
          () => void new Router(list as never, settings as never, { env }).close(),
          (p) => p.includes('model_list') || keys.some((k) => p.includes(k)),
        );
      }),
      { ...RUNS, numRuns: 100 },
    );
  });
});
