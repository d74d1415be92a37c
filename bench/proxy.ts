// bench/proxy.ts (npm run bench:proxy): what the gateway costs in front of a provider.
// autocannon at 50 connections against the mock upstream directly, a minimal undici pass-through
// server, and the proxy (virtual-key auth, spend logging to embedded PGlite), plain and streaming; each
// server in its own process, the same upstream behind both. Rounds alternate the order so that machine
// noise falls on all alike; prints medians of rounds and ends with
// `ratio: <proxy req/s / pass-through req/s>` (plain; target >= 0.70). Mode `responses` streams
// `/v1/responses` (store: false): the proxy translates it to a chat stream upstream and the chunks back
// into Responses events, while pass-through and mock direct forward the same body to the same upstream
// (which answers its chat stream): its ratio, next to chat streaming's, is what the translation adds
// (issue 26). `BENCH_MODES=streaming,responses` runs some modes only.

import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { BENCH_MASTER_KEY } from './lib/bench-keys.js';
import { addressLine, firstLine, spawnScript, stopChild } from './lib/child.js';
import { readCpu } from './lib/cpu-meter.js';
import { firstBytes } from './lib/first-byte.js';
import { type GatewayTarget, loadTarget, warmUp } from './lib/gateway-load.js';
import { median } from './lib/stats.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SERIAL_COUNT = Number(process.env.BENCH_SERIAL_COUNT ?? 200);
const CONNECTIONS = 50;
// the proxy writes spend rows every 0.5 s: wait for the run's last batch before reading its CPU
const SETTLE_MS = 800;
const PATHS: Record<Mode, string> = {
  plain: '/v1/chat/completions',
  streaming: '/v1/chat/completions',
  responses: '/v1/responses',
};
// 9 prompt and 2 completion tokens at the prices proxy-server.ts sets
const COST_PER_CALL = 9 * 0.0000025 + 2 * 0.00001;

const ALL_MODES = ['plain', 'streaming', 'responses'] as const;
type Mode = (typeof ALL_MODES)[number];
const MODES: readonly Mode[] = process.env.BENCH_MODES
  ? ALL_MODES.filter((m) => process.env.BENCH_MODES?.split(',').includes(m))
  : ALL_MODES;
const BODIES: Record<Mode, string> = {
  plain: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello.' }] }),
  streaming: JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Say hello.' }],
    stream: true,
  }),
  responses: JSON.stringify({ model: 'gpt-4o', input: 'Say hello.', stream: true, store: false }),
};
const CHAT_STREAM = ['"content":"Hel"', 'data: [DONE]'];
/** What a right answer holds: the proxy answers `/v1/responses` with Responses events, the others chat. */
const expectOf = (mode: Mode, target: Target): readonly string[] => {
  if (mode === 'plain') return ['Hello!'];
  if (mode === 'responses' && target.name.startsWith('proxy'))
    return ['"type":"response.output_text.delta"', '"type":"response.completed"'];
  return CHAT_STREAM;
};

interface Target {
  name: 'mock direct' | 'pass-through' | 'proxy' | 'proxy (JWT)';
  url: string;
  /** Where the server answers its CPU use (bench/lib/cpu-meter.ts). */
  meterUrl: string;
  authorization: string;
}
interface Run {
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
  /** Non-2xx answers, connection errors, timeouts, wrong bodies. */
  failed: number;
  firstByteMs: number;
}

const headersOf = (target: Target) => ({
  'content-type': 'application/json',
  authorization: target.authorization,
});

const asGateway = (target: Target): GatewayTarget => ({
  ...target,
  headers: { authorization: target.authorization },
});
const requestOf = (mode: Mode) => ({ path: PATHS[mode], body: BODIES[mode] });

function load(target: Target, mode: Mode, seconds: number): Promise<Omit<Run, 'firstByteMs'>> {
  return loadTarget(asGateway(target), requestOf(mode), CONNECTIONS, seconds);
}

async function measure(target: Target, mode: Mode): Promise<Run> {
  const run = await load(target, mode, DURATION);
  const probe = {
    url: target.url,
    path: PATHS[mode],
    headers: headersOf(target),
    body: BODIES[mode],
    expect: expectOf(mode, target),
  };
  const serial = await firstBytes(probe, SERIAL_COUNT);
  return { ...run, failed: run.failed + serial.wrong, firstByteMs: serial.medianMs };
}

const children = [spawnScript('fast-upstream.ts', [])];
const runs = new Map<string, Run[]>();
const runsOf = (mode: Mode, target: Target) => runs.get(`${mode} ${target.name}`) ?? [];
let spendCalls = Number.NaN;
let proxyCalls = Number.NaN;
try {
  const upstreamUrl = await firstLine(children[0]!);
  children.push(
    spawnScript('passthrough-server.ts', [upstreamUrl]),
    spawnScript('proxy-server.ts', [upstreamUrl]),
  );
  const passUrl = await firstLine(children[1]!);
  const [proxyUrl, key, proxyMeterUrl, token] = (await addressLine(children[2]!)).split(' ') as [
    string,
    string,
    string,
    string,
  ];
  const targets: Target[] = [
    { name: 'mock direct', url: upstreamUrl, meterUrl: upstreamUrl, authorization: 'Bearer sk-bench-key' },
    { name: 'pass-through', url: passUrl, meterUrl: passUrl, authorization: 'Bearer sk-bench-key' },
    { name: 'proxy', url: proxyUrl, meterUrl: proxyMeterUrl, authorization: `Bearer ${key}` },
    { name: 'proxy (JWT)', url: proxyUrl, meterUrl: proxyMeterUrl, authorization: `Bearer ${token}` },
  ];
  // the warm-up of every gateway bench (lib/warm-up.ts)
  for (const mode of MODES) for (const target of targets) await warmUp(asGateway(target), requestOf(mode));
  for (let round = 0; round < ROUNDS; round++) {
    const modes = round % 2 === 0 ? MODES : [...MODES].reverse();
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const mode of modes)
      for (const target of order) {
        process.stderr.write(`round ${round + 1}/${ROUNDS}: ${mode} ${target.name}\n`);
        runs.set(`${mode} ${target.name}`, [...runsOf(mode, target), await measure(target, mode)]);
      }
  }
  await sleep(SETTLE_MS);
  const info = await request(`${proxyUrl}/key/info`, { headers: { authorization: `Bearer ${key}` } });
  const { info: keyInfo } = (await info.body.json()) as { info: { spend: number } };
  const teamInfo = await request(`${proxyUrl}/team/info?team_id=bench-team`, {
    headers: { authorization: `Bearer ${BENCH_MASTER_KEY}` },
  });
  const { spend: teamSpend } = (await teamInfo.body.json()) as { spend: number };
  // the JWT target's calls are charged to its team; a kept Postgres schema has earlier runs' team spend
  spendCalls = Math.round((keyInfo.spend + teamSpend) / COST_PER_CALL);
  proxyCalls = (await readCpu(proxyMeterUrl)).requests - 2; // /key/info and /team/info are not calls
} finally {
  await Promise.all(children.map((child) => stopChild(child)));
}
report();

function report(): void {
  const summary = (mode: Mode, name: Target['name']) => {
    const list = runs.get(`${mode} ${name}`) ?? [];
    const mid = (pick: (run: Run) => number) => median(list.map(pick));
    return {
      rps: mid((r) => r.rps),
      p50: mid((r) => r.p50),
      p99: mid((r) => r.p99),
      cpuUs: mid((r) => r.cpuUs),
      firstByteMs: mid((r) => r.firstByteMs),
      failed: list.reduce((sum, r) => sum + r.failed, 0),
    };
  };
  const num = (n: number, digits = 0) => n.toFixed(digits);
  console.log(
    `proxy: autocannon ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds per target, medians of rounds;` +
      ` first byte: ${SERIAL_COUNT} calls one at a time; the proxy's spend log on` +
      (process.env.BENCH_DATABASE_URL ? ' Postgres (BENCH_DATABASE_URL)' : ' embedded PGlite'),
  );
  console.log(
    '| mode | target | req/s | p50 (ms) | p99 (ms) | added first byte, serial (ms) | server CPU/req (µs) | failed |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  const none = { plain: Number.NaN, streaming: Number.NaN, responses: Number.NaN };
  const ratios: Record<Mode, number> = { ...none };
  const jwtRatios: Record<Mode, number> = { ...none };
  let proxyFailed = 0;
  for (const mode of MODES) {
    const direct = summary(mode, 'mock direct');
    for (const name of ['mock direct', 'pass-through', 'proxy', 'proxy (JWT)'] as const) {
      const s = summary(mode, name);
      const added = name === 'mock direct' ? '' : num(s.firstByteMs - direct.firstByteMs, 3);
      console.log(
        `| ${mode} | ${name} | ${num(s.rps)} | ${num(s.p50, 1)} | ${num(s.p99, 1)} | ${added} | ${num(s.cpuUs, 1)} | ${s.failed} |`,
      );
    }
    const proxy = summary(mode, 'proxy');
    ratios[mode] = proxy.rps / summary(mode, 'pass-through').rps;
    jwtRatios[mode] = summary(mode, 'proxy (JWT)').rps / proxy.rps;
    proxyFailed += proxy.failed + summary(mode, 'proxy (JWT)').failed;
  }
  console.log();
  console.log('server CPU/req: the process answering (for mock direct, the upstream itself).');
  console.log(
    `spend logged: ${spendCalls} calls by the key's spend, of ${proxyCalls} calls the proxy served`,
  );
  console.log(
    `jwt ratio (JWT req/s / virtual-key req/s): plain ${jwtRatios.plain.toFixed(3)}, streaming ${jwtRatios.streaming.toFixed(3)}`,
  );
  console.log(`streaming ratio: ${ratios.streaming.toFixed(3)}`);
  console.log(
    `responses streaming ratio: ${ratios.responses.toFixed(3)} (chat streaming: ${ratios.streaming.toFixed(3)})`,
  );
  console.log(`ratio: ${ratios.plain.toFixed(3)}`);
  if (proxyFailed > 0) {
    console.error(`the proxy failed ${proxyFailed} requests: these numbers measure errors, not the proxy`);
    process.exitCode = 1;
  }
}
