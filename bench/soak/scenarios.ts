// The soak's scenarios: in each, one deployment (or the caller) misbehaves in one way next to a healthy
// one, and every call is judged. Shared by the upstream (which serves `behaviors`) and the client (which
// builds the router and makes the calls).
import { generateKeyPairSync } from 'node:crypto';
import type { DeploymentConfig, RouterSettings } from '@svc/router';
import type { MockBehavior } from '../../src/testing/index.js';
import {
  ANTHROPIC_KEY,
  AWS_SECRET_KEY,
  AWS_SESSION_TOKEN,
  CLIENT_SECRET,
  GEMINI_KEY,
  OPENAI_KEY,
} from './secrets.js';

export type CallKind = 'chat' | 'stream' | 'embedding';
/** Bodies no deployment can be sent: the router must refuse them itself. */
export const HOSTILE = ['cycle', 'bigint', 'deep', 'toJSON', 'getter', 'proxy'] as const;
export type Hostile = (typeof HOSTILE)[number];

/** What the i-th call of a scenario does. */
export interface Plan {
  kind: CallKind;
  /** @default 'm' */
  model?: string;
  /** A body the router must refuse with a BadRequestError, calling nobody. */
  hostile?: Hostile;
  /** The caller aborts after this many milliseconds (the call may finish first). */
  abortAfterMs?: number;
}

export interface Scenario {
  name: string;
  /** What misbehaves, and how. */
  what: string;
  /** The rules of docs/resilience.md the scenario checks. */
  checks: string;
  /** The mock's behaviours for this scenario, by path prefix (`/bad`, `/good`). */
  behaviors: Record<string, MockBehavior>;
  deployments(mock: string, echo: string): DeploymentConfig[];
  settings: RouterSettings;
  /** Calls of a full run and of a quick one (SOAK_QUICK=1). */
  calls: number;
  quickCalls: number;
  concurrency: number;
  /** A call not settled within this is a hang. */
  boundMs: number;
  plan(i: number, random: () => number): Plan;
  /** Heap before and after, for the growth scenario. */
  measureHeap?: boolean;
}

const key = (name: string) => `sk-soak-${name}-${'0123456789abcdef'.repeat(2)}`;

/** An OpenAI-format deployment on the scenario's mock, under `/<name>`. */
export function openai(mock: string, name: string, params: Record<string, unknown> = {}, group = 'm') {
  return {
    model_name: group,
    svc_params: { model: 'openai/gpt-4o', api_base: `${mock}/${name}/v1`, api_key: key(name), ...params },
    model_info: { id: name },
  };
}

// Limits well above what a healthy deployment needs even on a loaded machine: a healthy deployment that
// times out once while its neighbour cools empties the group (see docs/reliability.md, open issues).
const BASE: RouterSettings = { timeout: 1, cooldown_time: 1 };
const pair = (mock: string) => [openai(mock, 'bad'), openai(mock, 'good')];
const chat = (): Plan => ({ kind: 'chat' });
const stream = (): Plan => ({ kind: 'stream' });
const MESSAGES_RULES = 'calls fail over at once; the failing deployment cools; none lost';

/** One deployment failing in some way on chat calls, one healthy. */
function failing(name: string, what: string, bad: MockBehavior, settings: RouterSettings = {}): Scenario {
  return {
    name,
    what,
    checks: MESSAGES_RULES,
    behaviors: { '/bad': bad },
    deployments: pair,
    settings: { ...BASE, ...settings },
    calls: 2000,
    quickCalls: 200,
    concurrency: 20,
    boundMs: 4000,
    plan: chat,
  };
}

/** One deployment whose streams misbehave, one healthy; every call streams and reads to the end. */
function streaming(name: string, what: string, checks: string, options: object, settings: RouterSettings) {
  return {
    ...failing(name, what, { stream: options }, settings),
    checks,
    calls: 1000,
    quickCalls: 150,
    plan: stream,
  };
}

/**
 * `streaming`, with `stream_resume` on and a healthy deployment that supports assistant prefill: a
 * stream that breaks after its first chunks is continued there.
 */
function resuming(name: string, what: string, checks: string, options: object, settings: RouterSettings) {
  const prefill = (mock: string) => ({
    ...openai(mock, 'good'),
    model_info: { id: 'good', supports_assistant_prefill: true },
  });
  return {
    ...streaming(name, what, checks, options, { ...settings, stream_resume: true }),
    deployments: (mock: string) => [openai(mock, 'bad'), prefill(mock)],
  };
}

function serviceAccount(tokenUri: string) {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return {
    type: 'service_account',
    project_id: 'soak-project',
    private_key_id: 'soak-key-id',
    private_key: privateKey,
    client_email: 'soak@soak-project.iam.gserviceaccount.com',
    client_id: '1234567890',
    token_uri: tokenUri,
  };
}

/** Groups of two: a deployment on the leaking echo (one per kind of credential) and a healthy one. */
function leakingGroups(mock: string, echo: string): DeploymentConfig[] {
  const leaking: Record<string, Record<string, unknown>> = {
    openai: { model: 'openai/gpt-4o', api_base: `${echo}/v1`, api_key: OPENAI_KEY },
    anthropic: { model: 'anthropic/claude-sonnet-4-5', api_base: echo, api_key: ANTHROPIC_KEY },
    gemini: { model: 'gemini/gemini-2.5-flash', api_base: echo, api_key: GEMINI_KEY },
    azure: {
      model: 'azure/gpt-4o',
      api_base: echo,
      api_version: '2024-10-21',
      tenant_id: 'soak-tenant',
      client_id: 'soak-client',
      client_secret: CLIENT_SECRET,
      azure_authority_host: echo,
    },
    vertex: {
      model: 'vertex_ai/gemini-2.5-flash',
      api_base: echo,
      vertex_project: 'soak-project',
      vertex_location: 'europe-west4',
      vertex_credentials: serviceAccount(`${echo}/google/token`),
    },
    bedrock: {
      model: 'bedrock/anthropic.claude-3-haiku-20240307-v1:0',
      api_base: echo,
      aws_access_key_id: 'AKIASOAKEXAMPLE0001',
      aws_secret_access_key: AWS_SECRET_KEY,
      aws_session_token: AWS_SESSION_TOKEN,
      aws_region_name: 'us-east-1',
    },
  };
  return Object.entries(leaking).flatMap(([kind, params]) => [
    // cooldown_time 0: the leaking deployment stays in, so about half the calls meet it
    {
      model_name: kind,
      svc_params: { ...params, cooldown_time: 0 } as DeploymentConfig['svc_params'],
      model_info: { id: `${kind}-leaking` },
    },
    openai(mock, `${kind}-good`, {}, kind),
  ]);
}
export const LEAKING_GROUPS = ['openai', 'anthropic', 'gemini', 'azure', 'vertex', 'bedrock'];

export const SCENARIOS: Scenario[] = [
  failing('429 with retry-after', 'answers every call 429 with `retry-after: 1`', {
    status: 429,
    headers: { 'retry-after': '1' },
  }),
  failing('500s', 'answers half its calls 500', { status: 500, failRate: 0.5 }),
  failing('connection resets', 'resets the connection on half its calls', { fault: 'reset', failRate: 0.5 }),
  failing(
    'hangs (timeouts)',
    'accepts half its calls and never answers; `timeout: 1`',
    { fault: 'hang', failRate: 0.5 },
    {},
  ),
  streaming(
    'slow first token',
    'streams its first token after 2 s; `first_token_timeout: 0.6`',
    'the stream fails before its first chunk reaches the caller, so the call fails over; none lost',
    { chunkDelayMs: 2000 },
    { first_token_timeout: 0.6 },
  ),
  streaming(
    'stall before the first token',
    'sends the role chunk, then nothing; `stream_timeout: 0.6`',
    'the stall is caught before any chunk reaches the caller: the call fails over; none lost',
    { stallAfter: 1 },
    { stream_timeout: 0.6 },
  ),
  streaming(
    'stall mid-stream',
    'sends two content chunks, then nothing; `stream_timeout: 0.6`',
    'the caller gets a TimeoutError within stream_timeout (never a hang) and the deployment cools; ' +
      'a stream whose first chunks reached the caller cannot move, so these calls are counted lost',
    { stallAfter: 3 },
    { stream_timeout: 0.6 },
  ),
  resuming(
    'stall mid-stream, stream_resume',
    'sends two content chunks, then nothing; `stream_timeout: 0.6`, `stream_resume: true`, the healthy deployment supports assistant prefill',
    'the stalled stream is continued on the healthy deployment in the same stream: one whole answer; none lost',
    { stallAfter: 3 },
    { stream_timeout: 0.6 },
  ),
  resuming(
    'cut mid-stream, stream_resume',
    'cuts the connection after two content chunks; `stream_resume: true`, the healthy deployment supports assistant prefill',
    'the cut stream is continued on the healthy deployment in the same stream: one whole answer; none lost',
    { cutAfter: 3 },
    {},
  ),
  streaming(
    'drip',
    'sends every frame one byte at a time, 20 ms apart (seconds per event); `stream_timeout: 0.6`',
    'deadlines count whole events, not bytes: the stream fails before its first chunk; none lost',
    { dripMs: 20 },
    { stream_timeout: 0.6 },
  ),
  streaming(
    'malformed events',
    'sends an event that is not JSON before its first chunk',
    'the event is skipped with a `warning`; the call is served (by either deployment)',
    { malformedAfter: 1 },
    {},
  ),
  streaming(
    'clean end without [DONE]',
    'ends its streams after the finish chunk without `data: [DONE]`',
    'a stream that sent its finish is complete: served',
    { omitTerminal: true },
    {},
  ),
  {
    ...failing('200 with an error body', 'answers embeddings `200 {"error": {...}}`', {
      raw: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"error":{"message":"backend overloaded","type":"server_error","code":null}}',
      },
    }),
    checks: 'an error body in a 200 is a failure: the call fails over; none lost',
    plan: (): Plan => ({ kind: 'embedding' }),
  },
  {
    name: 'caller aborts',
    what: 'both healthy (20 ms answers); 80% of calls are aborted by the caller after 0-40 ms',
    checks:
      'an abort rejects with the caller’s reason, counts against no deployment (no cooldown, no failure); ' +
      'every call not aborted is served',
    behaviors: { '/': { delayMs: 20, stream: { chunkDelayMs: 5 } } },
    deployments: (mock) => [openai(mock, 'one'), openai(mock, 'two')],
    settings: { ...BASE, allowed_fails: 0 },
    calls: 2000,
    quickCalls: 200,
    concurrency: 20,
    boundMs: 4000,
    plan: (i, random) => ({
      kind: i % 2 === 0 ? 'chat' : 'stream',
      ...(random() < 0.8 ? { abortAfterMs: Math.floor(random() * 40) } : {}),
    }),
  },
  {
    name: 'unserialisable bodies',
    what: 'both healthy; every third call has a cycle, a BigInt, 100k-deep nesting, a throwing toJSON or getter, or is a Proxy',
    checks:
      'a body the router cannot send is a BadRequestError before any deployment is tried, and never counts; ' +
      'every valid call is served',
    behaviors: {},
    deployments: (mock) => [openai(mock, 'one'), openai(mock, 'two')],
    settings: { ...BASE, allowed_fails: 0 },
    calls: 1500,
    quickCalls: 150,
    concurrency: 10,
    boundMs: 4000,
    plan: (i) => ({
      kind: i % 2 === 0 ? 'chat' : 'stream',
      ...(i % 3 === 0 ? { hostile: HOSTILE[(i / 3) % HOSTILE.length]! } : {}),
    }),
  },
  {
    name: 'concurrency limits under load',
    what: 'two deployments with `max_parallel_requests: 4` (one answers in 10 ms, one in 200 ms); 64 callers at once; `timeout: 5`',
    checks:
      'the upstream never sees more than the limits (8); callers wait for a slot within their timeout; none lost',
    behaviors: { '/fast': { delayMs: 10 }, '/slow': { delayMs: 200 } },
    deployments: (mock) => [
      openai(mock, 'fast', { max_parallel_requests: 4 }),
      openai(mock, 'slow', { max_parallel_requests: 4 }),
    ],
    settings: { timeout: 5 },
    calls: 3000,
    quickCalls: 300,
    concurrency: 64,
    boundMs: 12_000,
    plan: chat,
  },
  {
    name: 'secrets in echoed error bodies',
    what:
      'six groups (OpenAI, Anthropic, Gemini keys; Azure Entra ID client secret and token; Vertex service account ' +
      'token and JWT assertion; Bedrock SigV4 session token), each with a deployment whose 500 echoes every ' +
      'credential it was sent (raw, URL-encoded, base64) and a healthy one',
    checks:
      'no secret, in any encoding, in an error message, stack, util.inspect (attempts included), event, ' +
      'callback payload, log line or util.inspect(router); every call served by the healthy deployment',
    behaviors: {},
    deployments: leakingGroups,
    settings: { ...BASE },
    calls: 600,
    quickCalls: 120,
    concurrency: 8,
    boundMs: 6000,
    plan: (i) => ({
      kind: i % 4 === 3 ? 'stream' : 'chat',
      model: LEAKING_GROUPS[i % LEAKING_GROUPS.length]!,
    }),
  },
  {
    ...failing('growth', 'answers 30% of calls 500; chat, streams and embeddings mixed', {
      status: 500,
      failRate: 0.3,
    }),
    checks: 'memory stays flat over many calls (heap after a GC, before and after); none lost',
    calls: 40_000,
    quickCalls: 2500,
    plan: (i): Plan => ({ kind: (['chat', 'stream', 'embedding'] as const)[i % 3]! }),
    measureHeap: true,
  },
];
