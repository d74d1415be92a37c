import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type DeploymentConfig,
  type FailureEvent,
  Router,
  RouterError,
} from '../../src/index.js';
import { deployment, useMock } from '../helpers.js';

// Request bodies, arbitrary and hostile, through every call of a Router on two healthy deployments of
// the mock provider. Every call must end, within a bound, in a result or a RouterError (a
// BadRequestError naming the field for the request's own fault); the request's fault never emits
// `failure`, never cools or counts against a deployment, never holds a slot; no prototype changes;
// the next valid call is still served. Fixed seed, bounded runs.
const SEED = 20_250_704;
const BOUND_MS = 4000;

// ---------------------------------------------------------------------------------------------------
// hostile values

/** Own, enumerable keys exactly as JSON.parse makes them (a `__proto__` key is a plain own key). */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function chain(depth: number, array: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = array ? [value] : { deeper: value };
  return value;
}

const HOSTILE: Record<string, () => unknown> = {
  cycle: () => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = o;
    return o;
  },
  'cycle in an array': () => {
    const a: unknown[] = ['x'];
    a.push(a);
    return a;
  },
  'object nested 100k deep': () => chain(100_000, false),
  'array nested 100k deep': () => chain(100_000, true),
  'object nested 2k deep': () => chain(2000, false),
  'throwing toJSON': () => ({
    toJSON() {
      throw new Error('toJSON refuses');
    },
  }),
  'throwing getter': () => {
    const o = {};
    Object.defineProperty(o, 'x', {
      enumerable: true,
      get() {
        throw new Error('getter refuses');
      },
    });
    return o;
  },
  'throwing proxy': () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error('proxy refuses get');
        },
        has() {
          throw new Error('proxy refuses has');
        },
        ownKeys() {
          throw new Error('proxy refuses ownKeys');
        },
        getOwnPropertyDescriptor() {
          throw new Error('proxy refuses getOwnPropertyDescriptor');
        },
        getPrototypeOf() {
          throw new Error('proxy refuses getPrototypeOf');
        },
      },
    ),
  bigint: () => 10n,
  'bigint inside': () => ({ n: 1n }),
  '__proto__ key': () => JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}'),
  'constructor.prototype key': () => JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
  'null prototype': () => Object.assign(Object.create(null), { role: 'user', content: 'hi' }),
  'huge string': () => 'x'.repeat(1_000_000),
  // the tokenizer of pre-call checks is quadratic in a run without spaces, unless sliced
  'long text without spaces': () =>
    Array.from({ length: 100_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join(''),
  'lone surrogate': () => '\uD800',
  symbol: () => Symbol('s'),
  function: () => () => 1,
  'invalid date': () => new Date(Number.NaN),
  map: () => new Map([['a', 1]]),
  set: () => new Set([1]),
  regexp: () => /x/g,
  error: () => new Error('an error value'),
  'typed array': () => new Uint8Array(4),
  'sparse array': () => {
    const holes: unknown[] = [];
    holes[2] = 'x';
    return holes;
  },
  'long array': () => Array.from({ length: 5000 }, (_, i) => `item ${i}`),
  NaN: () => Number.NaN,
  Infinity: () => Number.POSITIVE_INFINITY,
  '-Infinity': () => Number.NEGATIVE_INFINITY,
  '-0': () => -0,
  '1e308': () => 1e308,
  '-1': () => -1,
  'tiny positive': () => 5e-324,
  'unsafe integer': () => 2 ** 53 + 1,
  'env reference': () => 'os.environ/HOME',
  empty: () => '',
  null: () => null,
  undefined: () => undefined,
};

/** A value to put in a body: a named hostile value (built fresh when used: a report prints its name) or a generated one. */
type Value = { hostile: string } | { value: unknown };

const materialise = (v: Value): unknown => ('hostile' in v ? HOSTILE[v.hostile]!() : v.value);

const anyValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ hostile: fc.constantFrom(...Object.keys(HOSTILE)) }) },
  { weight: 2, arbitrary: fc.record({ value: fc.jsonValue({ maxDepth: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      value: fc.anything({
        maxDepth: 2,
        withBigInt: true,
        withMap: true,
        withSet: true,
        withDate: true,
        withTypedArray: true,
        withSparseArray: true,
        withNullPrototype: true,
        withBoxedValues: true,
      }),
    }),
  },
);

// ---------------------------------------------------------------------------------------------------
// request bodies

type Kind = 'chat' | 'embedding' | 'textCompletion' | 'imageGeneration';

const ROUTER_FIELDS = [
  'timeout',
  'num_retries',
  'fallbacks',
  'metadata',
  'mock_response',
  'drop_params',
  'mock_testing_fallbacks',
  'mock_testing_rate_limit_error',
  'allowed_model_region',
  'stream_timeout',
  'first_token_timeout',
  'specific_deployment',
  'tags',
  'cache',
  'api_key',
  'api_base',
  'custom_llm_provider',
];

const KNOWN: Record<Kind, string[]> = {
  chat: [
    'model',
    'messages',
    'stream',
    'stream_options',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'temperature',
    'top_p',
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'n',
    'seed',
    'user',
    'response_format',
    'reasoning_effort',
    'thinking',
    'logit_bias',
  ],
  embedding: ['model', 'input', 'dimensions', 'encoding_format', 'user'],
  textCompletion: ['model', 'prompt', 'max_tokens', 'temperature', 'stop', 'n', 'echo', 'suffix'],
  imageGeneration: ['model', 'prompt', 'n', 'size', 'quality', 'response_format', 'style', 'user'],
};

/** Where inside a valid body a hostile value may go, besides its top-level fields. */
const NESTED: Record<Kind, string[][]> = {
  chat: [
    ['messages', '0'],
    ['messages', '0', 'content'],
    ['messages', '0', 'role'],
    ['messages', '0', 'name'],
    ['messages', '0', 'tool_calls'],
    ['messages', '1'],
    ['tools', '0', 'function', 'parameters'],
    ['tools', '0', 'function', 'name'],
    ['metadata', 'note'],
  ],
  embedding: [
    ['input', '0'],
    ['input', '1'],
  ],
  textCompletion: [['prompt', '0']],
  imageGeneration: [['metadata', 'note']],
};

function validBody(kind: Kind): Record<string, unknown> {
  switch (kind) {
    case 'chat':
      return {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hello' }],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        metadata: { note: 'n' },
      };
    case 'embedding':
      return { model: 'gpt-4o', input: ['a', 'b'] };
    case 'textCompletion':
      return { model: 'gpt-4o', prompt: ['say hi'] };
    case 'imageGeneration':
      return { model: 'gpt-4o', prompt: 'a cat', metadata: { note: 'n' } };
  }
}

const UNSAFE = ['__proto__', 'constructor', 'prototype'];

type Edit =
  | { op: 'set'; key: string; value: Value }
  | { op: 'delete'; key: string }
  | { op: 'nest'; path: string[]; value: Value };

const editOf = (kind: Kind): fc.Arbitrary<Edit> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        key: fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...KNOWN[kind], ...ROUTER_FIELDS) },
          { weight: 1, arbitrary: fc.constantFrom(...UNSAFE) },
          { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
        ),
        value: anyValue,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.constantFrom(...KNOWN[kind]) }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('nest' as const),
        path: fc.constantFrom(...NESTED[kind]),
        value: anyValue,
      }),
    },
  );

function apply(body: Record<string, unknown>, edit: Edit): void {
  if (edit.op === 'delete') {
    delete body[edit.key];
    return;
  }
  if (edit.op === 'set') {
    define(body, edit.key, materialise(edit.value));
    return;
  }
  let at: unknown = body;
  for (const step of edit.path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return;
    const next = (at as Record<string, unknown>)[step];
    if (next === null || typeof next !== 'object' || Object.isFrozen(next)) return;
    at = next;
  }
  if (at !== null && typeof at === 'object') define(at, edit.path.at(-1)!, materialise(edit.value));
}

/** A whole body that is not a plain object, or a plain one made hostile at its top. */
const WHOLE: Record<string, (body: Record<string, unknown>) => unknown> = {
  'as built': (body) => body,
  null: () => null,
  string: () => 'a request',
  number: () => 42,
  array: (body) => [body],
  'null prototype': (body) => Object.assign(Object.create(null), body),
  'cycle at the top': (body) => {
    body.self = body;
    return body;
  },
  'throwing getter at the top': (body) => {
    Object.defineProperty(body, 'temperature', {
      enumerable: true,
      get() {
        throw new Error('getter refuses');
      },
    });
    return body;
  },
  'throwing proxy': () => HOSTILE['throwing proxy']!(),
  'proxy over the body': (body) => new Proxy(body, {}),
  frozen: (body) => Object.freeze(body),
};

const bodyOf = (kind: Kind, stream: fc.Arbitrary<boolean | undefined>) =>
  fc.record({
    stream,
    edits: fc.array(editOf(kind), { maxLength: 3 }),
    whole: fc.oneof(
      { weight: 8, arbitrary: fc.constant('as built') },
      { weight: 2, arbitrary: fc.constantFrom(...Object.keys(WHOLE)) },
    ),
  });

/** Builds the body a generated description stands for (fresh each time: a call may not see another's). */
function build(kind: Kind, d: { stream: boolean | undefined; edits: Edit[]; whole: string }): unknown {
  const body = validBody(kind);
  if (d.stream !== undefined) body.stream = d.stream;
  for (const edit of d.edits) apply(body, edit);
  return WHOLE[d.whole]!(body);
}

// ---------------------------------------------------------------------------------------------------
// the router under test and its bookkeeping

const mock = useMock({ record: false });
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

interface Harness {
  router: Router;
  failures: unknown[];
  cooldowns: unknown[];
}

/** The two deployments of a case: both OpenAI-format, or a Claude and a Gemini one (their request translation). */
type Pair = 'openai' | 'anthropic+gemini';

function pairOf(pair: Pair): DeploymentConfig[] {
  if (pair === 'openai') return [deployment(mock, 'a'), deployment(mock, 'b')];
  return [
    {
      model_name: 'gpt-4o',
      svc_params: { model: 'anthropic/claude-sonnet-4-5', api_base: `${mock.url}/a`, api_key: 'sk-a-0000' },
      model_info: { id: 'a' },
    },
    {
      model_name: 'gpt-4o',
      svc_params: { model: 'gemini/gemini-2.5-flash', api_base: `${mock.url}/b`, api_key: 'sk-b-0000' },
      model_info: { id: 'b' },
    },
  ];
}

function harness(pair: Pair, settings: Record<string, unknown>): Harness {
  const router = new Router(pairOf(pair), {
    timeout: 2,
    num_retries: 1,
    allowed_fails: 0,
    cooldown_time: 60,
    ...settings,
  });
  const failures: unknown[] = [];
  const cooldowns: unknown[] = [];
  router.on('failure', (e) => failures.push(e));
  router.on('cooldown', (e) => cooldowns.push(e));
  return { router, failures, cooldowns };
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const baseline = PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort());

type Method = 'acompletion' | 'completion' | 'aembedding' | 'atextCompletion' | 'aimageGeneration';

/** Drains a stream or returns the result; rejects with whatever the call or the stream throws. */
async function settle(router: Router, method: Method, body: unknown): Promise<unknown> {
  const result = await (router[method] as (b: unknown) => Promise<unknown>)(body);
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    const chunks: unknown[] = [];
    for await (const chunk of result as AsyncIterable<unknown>) chunks.push(chunk);
    return chunks;
  }
  return result;
}

type Ending = { kind: 'result'; value: unknown } | { kind: 'error'; error: unknown } | { kind: 'hang' };

async function bounded(work: Promise<unknown>): Promise<Ending> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Ending>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hang' }), BOUND_MS);
  });
  try {
    return await Promise.race([
      work.then(
        (value): Ending => ({ kind: 'result', value }),
        (error: unknown): Ending => ({ kind: 'error', error }),
      ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const VALID: Record<Method, () => unknown> = {
  acompletion: () => validBody('chat'),
  completion: () => ({ ...validBody('chat'), stream: true }),
  aembedding: () => validBody('embedding'),
  atextCompletion: () => validBody('textCompletion'),
  aimageGeneration: () => validBody('imageGeneration'),
};

/** Fields a request may set to make the router answer with an error of its choosing, no provider called. */
function asksForAFailure(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  try {
    const b = body as Record<string, unknown>;
    return b.mock_testing_fallbacks === true || b.mock_testing_rate_limit_error === true;
  } catch {
    return false;
  }
}

/**
 * Whether the router itself judged the request (its shape, a field it cannot read or serialise, an
 * unknown model) before any deployment was tried.
 */
const judgedByTheRouter = (error: RouterError) =>
  /^(Invalid request: request|Unknown model)/.test(error.message);

async function check(h: Harness, method: Method, body: unknown): Promise<void> {
  const ending = await bounded(settle(h.router, method, body));
  expect(ending.kind, 'the call ended within the bound').not.toBe('hang');
  if (ending.kind === 'error') {
    const { error } = ending;
    if (!RouterError.isInstance(error)) throw error; // shows the raw error and its stack
    if (!asksForAFailure(body)) {
      expect(error, `${error.name}: ${error.message}`).toBeInstanceOf(BadRequestError);
      // the router's own verdicts name the field (or the model); a provider's 400 says it its way
      if (judgedByTheRouter(error))
        expect(h.failures, 'no failure event for a fault the router found').toEqual([]);
    }
  }
  // a provider may refuse a request (400): that attempt is reported, and counts against nothing
  for (const e of h.failures as FailureEvent[])
    expect(e.error, e.error.message).toBeInstanceOf(BadRequestError);
  expect(h.cooldowns, 'no cooldown').toEqual([]);
  for (const d of h.router.getDeployments()) {
    expect(d.state).toBe('ok');
    expect(d.failures_this_minute).toBe(0);
    expect(d.in_flight).toBe(0);
  }
  expect(PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort())).toEqual(baseline);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  // the next valid call is served by one of the two
  const next = await bounded(settle(h.router, method, VALID[method]()));
  if (next.kind === 'error') throw next.error;
  expect(next.kind).toBe('result');
}

/**
 * A caller's own `timeout` below what any deployment answers in ends in a TimeoutError that cools the
 * deployment like any other timeout (an open question, see docs/reliability.md): left out here.
 */
function tinyTimeout(body: unknown): boolean {
  try {
    const t = (body as { timeout?: unknown } | null)?.timeout;
    return typeof t === 'number' && t > 0 && t < 1;
  } catch {
    return false;
  }
}

type Description = { stream?: boolean | undefined; edits: Edit[]; whole: string };
const content = (hostile: string): Edit => ({
  op: 'nest',
  path: ['messages', '0', 'content'],
  value: { hostile },
});

/** Inputs that found defects, always tried first (then the generated ones). */
const EXAMPLES: Record<Kind, Description[]> = {
  chat: [
    { edits: [], whole: 'throwing getter at the top' },
    { edits: [], whole: 'throwing proxy' },
    { edits: [content('object nested 2k deep')], whole: 'as built' },
    { edits: [content('long text without spaces')], whole: 'as built' },
    { edits: [content('cycle')], whole: 'as built' },
    { edits: [{ op: 'set', key: 'extra', value: { hostile: 'bigint inside' } }], whole: 'as built' },
  ],
  embedding: [{ edits: [], whole: 'throwing getter at the top' }],
  textCompletion: [{ edits: [], whole: 'throwing getter at the top' }],
  imageGeneration: [{ edits: [{ op: 'set', key: 'n', value: { hostile: 'set' } }], whole: 'as built' }],
};

interface Case {
  method: Method;
  kind: Kind;
  stream: fc.Arbitrary<boolean | undefined>;
  pair?: Pair;
  settings?: Record<string, unknown>;
  label?: string;
  numRuns?: number;
}

const STREAM_OR_NOT = fc.constantFrom(undefined, false, true);
const CASES: Case[] = [
  { method: 'acompletion', kind: 'chat', stream: STREAM_OR_NOT },
  { method: 'completion', kind: 'chat', stream: fc.constantFrom(undefined, true) },
  { method: 'aembedding', kind: 'embedding', stream: fc.constant(undefined) },
  { method: 'atextCompletion', kind: 'textCompletion', stream: fc.constant(undefined) },
  { method: 'aimageGeneration', kind: 'imageGeneration', stream: fc.constant(undefined) },
  {
    method: 'acompletion',
    kind: 'chat',
    stream: STREAM_OR_NOT,
    pair: 'anthropic+gemini',
    label: 'acompletion on a Claude and a Gemini deployment',
  },
  {
    method: 'acompletion',
    kind: 'chat',
    stream: STREAM_OR_NOT,
    settings: {
      enable_pre_call_checks: true,
      default_max_parallel_requests: 1,
      callbacks: [{ logSuccessEvent: () => {}, logFailureEvent: () => {} }],
    },
    label: 'acompletion with pre-call checks, a concurrency limit and a logger callback',
  },
];

describe('request properties: every body ends in a result or a typed error, and never counts', () => {
  for (const {
    method,
    kind,
    stream,
    pair = 'openai',
    settings = {},
    label = method,
    numRuns = 80,
  } of CASES) {
    it(label, async () => {
      await fc.assert(
        fc.asyncProperty(bodyOf(kind, stream), async (description) => {
          const body = build(kind, description);
          fc.pre(!tinyTimeout(body));
          // a router per input: a failure found (and each shrink of it) starts from a clean state
          const h = harness(pair, settings);
          try {
            await check(h, method, body);
          } finally {
            await h.router.close();
          }
        }),
        { seed: SEED, numRuns, examples: EXAMPLES[kind].map((d) => [{ stream: undefined, ...d }]) },
      );
      expect(uncaught).toEqual([]);
    });
  }
});
