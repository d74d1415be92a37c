// The soak's client, in its own process: runs each scenario against its mock (or the leaking echo)
// through the built package, judges every call, and prints one JSON line of results per scenario.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BadRequestError, type DeploymentConfig, Router } from '@svc/router';
import { seededRandom } from '@svc/router/testing';
import { quantile } from '../lib/stats.js';
import { hostileRequest } from './hostile.js';
import { forms, type Secret, Watcher } from './observe.js';
import { type Plan, SCENARIOS, type Scenario } from './scenarios.js';
import { ENTRA_TOKEN, GOOGLE_TOKEN } from './secrets.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** One scenario's results, as the table shows them. */
export interface ScenarioResult {
  name: string;
  calls: number;
  served: number;
  /** Ended as designed without a result: hostile bodies refused, calls the caller aborted. */
  byDesign: number;
  lost: number;
  hangs: number;
  secretsFound: number;
  p50Ms: number;
  p99Ms: number;
  notes: string[];
}

const MESSAGES = [{ role: 'user' as const, content: 'Say hello.' }];

async function execute(router: Router, plan: Plan, signal: AbortSignal | undefined): Promise<void> {
  const model = plan.model ?? 'm';
  const control = signal ? { signal } : undefined;
  const streaming = plan.kind === 'stream';
  if (plan.kind === 'embedding') {
    await router.aembedding({ model, input: ['a', 'b'] }, control);
    return;
  }
  const request = plan.hostile
    ? hostileRequest(plan.hostile, model, streaming)
    : { model, messages: MESSAGES, stream: streaming };
  const result = await router.acompletion(request as never, control);
  if (!streaming) return;
  let chunks = 0;
  for await (const _ of result as AsyncIterable<unknown>) chunks += 1;
  if (chunks === 0) throw new Error('the stream ended with no chunk');
}

type Ending = { ok: true } | { ok: false; error: unknown } | { stuck: true };

/** Waits for the call, but never past `capMs`: a call stuck that long is abandoned (and is a hang). */
async function settle(work: Promise<void>, capMs: number): Promise<Ending> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<Ending>((resolve) => {
    timer = setTimeout(() => resolve({ stuck: true }), capMs);
  });
  try {
    return await Promise.race([
      work.then(
        (): Ending => ({ ok: true }),
        (error: unknown): Ending => ({ ok: false, error }),
      ),
      cap,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The secrets configured in the model list, and the tokens the echo hands out. */
function configuredSecrets(list: readonly DeploymentConfig[]): Secret[] {
  const secrets: Secret[] = [
    { label: 'Entra ID access token', value: ENTRA_TOKEN },
    { label: 'Google access token', value: GOOGLE_TOKEN },
  ];
  for (const { svc_params: p, model_info } of list) {
    const id = String(model_info?.id ?? p.model);
    for (const field of ['api_key', 'client_secret', 'aws_secret_access_key', 'aws_session_token']) {
      const value = (p as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string') secrets.push({ label: `${id} ${field}`, value });
    }
    const key = (p as { vertex_credentials?: { private_key?: string } }).vertex_credentials?.private_key;
    // a PEM leaks by its lines: look for the longest one
    if (key)
      secrets.push({
        label: `${id} private_key`,
        value: key.split('\n').sort((a, b) => b.length - a.length)[0]!,
      });
  }
  return secrets;
}

async function stats(echo: string, scenario: string) {
  const res = await fetch(`${echo}/__stats?scenario=${encodeURIComponent(scenario)}`);
  return (await res.json()) as { maxInFlight: number; assertions: string[]; echoed: Record<string, number> };
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function run(scenario: Scenario, mock: string, echo: string, quick: boolean): Promise<ScenarioResult> {
  const list = scenario.deployments(mock, echo);
  const watcher = new Watcher(configuredSecrets(list), { retain: scenario.name.startsWith('secrets') });
  const router = new Router(
    list,
    { ...scenario.settings, callbacks: [watcher.callback] },
    { logger: watcher.logger, random: seededRandom(1) },
  );
  watcher.attach(router);
  const count = quick ? scenario.quickCalls : scenario.calls;
  const random = seededRandom(42);
  const plans = Array.from({ length: count }, (_, i) => scenario.plan(i, random));
  const latencies = new Float64Array(count);
  const r = { served: 0, byDesign: 0, lost: 0, hangs: 0, wrong: 0 };
  const errors: Record<string, number> = {};

  const one = async (i: number): Promise<void> => {
    const plan = plans[i]!;
    const controller = plan.abortAfterMs === undefined ? undefined : new AbortController();
    const reason = new Error(`caller gave up on call ${i}`);
    const timer = controller && setTimeout(() => controller.abort(reason), plan.abortAfterMs);
    const t0 = performance.now();
    const ending = await settle(execute(router, plan, controller?.signal), scenario.boundMs * 3);
    const ms = performance.now() - t0;
    clearTimeout(timer);
    latencies[i] = ms;
    if (ms > scenario.boundMs || 'stuck' in ending) r.hangs += 1;
    if ('stuck' in ending) {
      r.lost += 1;
      return;
    }
    if (!ending.ok) watcher.error(ending.error);
    if (plan.hostile) {
      if (!ending.ok && BadRequestError.isInstance(ending.error)) r.byDesign += 1;
      else r.wrong += 1;
      return;
    }
    if (ending.ok) {
      r.served += 1;
      return;
    }
    if (controller?.signal.aborted && ending.error === reason) {
      r.byDesign += 1;
      return;
    }
    // a healthy deployment was there to serve it
    r.lost += 1;
    const name = ending.error instanceof Error ? ending.error.name : typeof ending.error;
    errors[name] = (errors[name] ?? 0) + 1;
  };
  const runCalls = async (from: number, to: number, concurrency: number) => {
    let next = from;
    const worker = async () => {
      for (let i = next++; i < to; i = next++) await one(i);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  const notes: string[] = [];
  if (scenario.measureHeap) {
    const warmUp = Math.floor(count / 10);
    await runCalls(0, warmUp, scenario.concurrency);
    const before = heapMb();
    await runCalls(warmUp, count, scenario.concurrency);
    const after = heapMb();
    notes.push(
      `heap ${before.toFixed(1)} → ${after.toFixed(1)} MB over ${count - warmUp} calls (${(after - before).toFixed(1)} MB)`,
    );
  } else await runCalls(0, count, scenario.concurrency);

  watcher.router(router);
  const upstream = await stats(echo, scenario.name);
  watcher.rescan(upstream.assertions.map((value, i) => ({ label: `JWT assertion ${i + 1}`, value })));
  await router.close();

  const hostile = plans.filter((p) => p.hostile).length;
  if (hostile > 0) notes.push(`hostile bodies refused with BadRequestError: ${hostile - r.wrong}/${hostile}`);
  if (plans.some((p) => p.abortAfterMs !== undefined)) notes.push(`aborted by the caller: ${r.byDesign}`);
  if (scenario.name.startsWith('concurrency'))
    notes.push(`most requests at the upstream at once: ${upstream.maxInFlight}`);
  if (scenario.name.startsWith('secrets')) {
    const echoes = Object.entries(upstream.echoed).map(([kind, n]) => `${kind} ${n}`);
    notes.push(`error bodies echoing credentials: ${echoes.join(', ')}`);
    notes.push(
      `${forms(configuredSecrets(list)).length + upstream.assertions.length} secret forms looked for`,
    );
  }
  const events = watcher.events;
  notes.push(
    `events: ${['failure', 'cooldown', 'warning', 'callback_error']
      .map((name) => `${name} ${events[name] ?? 0}`)
      .join(', ')}`,
  );
  const cooled = Object.entries(watcher.cooled).map(([id, n]) => `${id} ×${n}`);
  if (cooled.length > 0) notes.push(`cooled: ${cooled.join(', ')}`);
  if (Object.keys(errors).length > 0) notes.push(`lost as: ${JSON.stringify(errors)}`);
  if (watcher.examples.length > 0) notes.push(`secrets seen: ${watcher.examples.join('; ')}`);
  latencies.sort();
  return {
    name: scenario.name,
    calls: count,
    served: r.served,
    byDesign: r.byDesign,
    lost: r.lost + r.wrong,
    hangs: r.hangs,
    secretsFound: watcher.found,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    notes,
  };
}

const { mocks, echo } = JSON.parse(process.argv[2]!) as { mocks: Record<string, string>; echo: string };
const quick = process.env.SOAK_QUICK === '1';
const only = process.env.SOAK_ONLY?.split(',');
for (const scenario of SCENARIOS) {
  if (only && !only.some((name) => scenario.name.startsWith(name))) continue;
  const result = await run(scenario, mocks[scenario.name]!, echo, quick);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
