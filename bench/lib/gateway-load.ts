import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { cpuUsPerRequest, readCpu } from './cpu-meter.js';
import { procCpuUs } from './proc-cpu.js';
import { load, paced, quantile } from './stats.js';
import { GATEWAY_WARMUP_CONNECTIONS, GATEWAY_WARMUP_SECONDS } from './warm-up.js';

/** A server a gateway bench sends load to. */
export interface GatewayTarget {
  name: string;
  url: string;
  /** Where the server answers its CPU use (lib/cpu-meter.ts); else `pid` is read from /proc. */
  meterUrl?: string | undefined;
  pid?: number | undefined;
  headers: Record<string, string>;
}

/** One load run's figures. */
export interface LoadRun {
  rps: number;
  /** ms */
  p50: number;
  /** ms */
  p99: number;
  /** CPU µs of the server per request; NaN when it cannot be read. */
  cpuUs: number;
  /** Non-2xx answers, connection errors, timeouts. */
  failed: number;
}

export const CHAT_PATH = '/v1/chat/completions';
export const CHAT_BODIES = {
  plain: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello.' }] }),
  streaming: JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Say hello.' }],
    stream: true,
  }),
} as const;
export type ChatMode = keyof typeof CHAT_BODIES;

/** What a load sends: a chat mode's request, or a path and body of its own. */
export type LoadRequest = ChatMode | { path: string; body: string };

// the proxy writes spend rows every 0.5 s: wait for the run's last batch before reading its CPU
const SETTLE_MS = 800;
async function cpuReading(target: GatewayTarget): Promise<{ cpuUs: number; requests: number | undefined }> {
  if (target.meterUrl) return readCpu(target.meterUrl);
  return { cpuUs: target.pid === undefined ? Number.NaN : procCpuUs(target.pid), requests: undefined };
}

/**
 * autocannon at `connections` for `seconds` against `target`'s chat completions, with the server's CPU
 * per request read around the run (its own meter, or /proc for a server that has none).
 */
export async function loadTarget(
  target: GatewayTarget,
  request: LoadRequest,
  connections: number,
  seconds: number,
): Promise<LoadRun> {
  const { path, body } =
    typeof request === 'string' ? { path: CHAT_PATH, body: CHAT_BODIES[request] } : request;
  const before = await cpuReading(target);
  const result = await autocannon({
    url: `${target.url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body,
    connections,
    duration: seconds,
  });
  await sleep(SETTLE_MS);
  const after = await cpuReading(target);
  const served = result.requests.total;
  const cpuUs =
    before.requests === undefined || after.requests === undefined
      ? (after.cpuUs - before.cpuUs) / Math.max(1, served)
      : cpuUsPerRequest(
          before as { cpuUs: number; requests: number },
          after as { cpuUs: number; requests: number },
        );
  return {
    rps: served / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Warms `target` up for `request` as every gateway bench does before it measures (lib/warm-up.ts,
 * `GATEWAY_WARMUP_SECONDS`); returns the warm-up's run.
 */
export function warmUp(target: GatewayTarget, request: LoadRequest): Promise<LoadRun> {
  return loadTarget(target, request, GATEWAY_WARMUP_CONNECTIONS, GATEWAY_WARMUP_SECONDS);
}

/** Latency figures of one run, in µs. */
export interface LatencyRun {
  p50Us: number;
  p99Us: number;
}

/**
 * Latency through a Pool of `connections`, measured to the microsecond (autocannon reports whole
 * milliseconds), each answer read to its end, `count` calls after a warm-up of a tenth as many: with
 * `perSecond`, calls start at that rate whatever the answers' pace (a server under part load: what a
 * call costs in time), else `connections` calls are always in flight (a saturated server: its queue).
 */
export async function latencyRun(
  target: GatewayTarget,
  mode: ChatMode,
  connections: number,
  count: number,
  perSecond?: number,
): Promise<LatencyRun> {
  const pool = new Pool(target.url, { connections });
  const headers = { 'content-type': 'application/json', ...target.headers };
  const body = CHAT_BODIES[mode];
  const call = async () => {
    const res = await pool.request({ path: CHAT_PATH, method: 'POST', headers, body });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${target.name} answered ${res.statusCode}`);
  };
  try {
    await load(Math.ceil(count / 10), connections, call);
    const latenciesUs =
      perSecond === undefined
        ? (await load(count, connections, call)).latenciesUs
        : await paced(count, perSecond, call);
    return { p50Us: quantile(latenciesUs, 0.5), p99Us: quantile(latenciesUs, 0.99) };
  } finally {
    await pool.close();
  }
}
