import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';

/** The CPU a bench server process has used so far (µs, user + system) and the requests it has served. */
export interface CpuReading {
  cpuUs: number;
  requests: number;
}

/** The path a bench server answers its CpuReading on (never counted as a request served). */
export const CPU_PATH = '/__cpu';

/**
 * Counts the requests a bench server serves and reports them with the process's CPU use, so that the
 * driver can divide one by the other over a load run: CPU per request of the server alone, which
 * autocannon's req/s cannot separate from the other processes sharing the cores.
 */
export class CpuMeter {
  requests = 0;

  /** Answers a CpuReading when `req` asks for one; true when it did (the caller then stops). */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.url !== CPU_PATH) return false;
    const { user, system } = process.cpuUsage();
    const reading: CpuReading = { cpuUs: user + system, requests: this.requests };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reading));
    return true;
  }
}

/** Asks a bench server (at `url`, which ends before CPU_PATH) for its CpuReading. */
export async function readCpu(url: string): Promise<CpuReading> {
  const res = await request(`${url}${CPU_PATH}`);
  return (await res.body.json()) as CpuReading;
}

/** CPU µs per request served between two readings. */
export function cpuUsPerRequest(before: CpuReading, after: CpuReading): number {
  return (after.cpuUs - before.cpuUs) / Math.max(1, after.requests - before.requests);
}
