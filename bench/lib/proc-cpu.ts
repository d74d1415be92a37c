import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 10_000; // /proc CPU times are in clock ticks of 10 ms (USER_HZ 100)

/** A process's CPU time so far (µs, user + system, all threads) from /proc; NaN where there is none. */
export function procCpuUs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
  } catch {
    return Number.NaN;
  }
}

/** The CPU so far of each process of one kind, by pid: what `cpuSince` compares a later reading with. */
export type ProcessesCpu = Map<number, number>;

/** Every process named `name` (its /proc comm) on this machine and its CPU so far. */
export function processesCpu(name: string): ProcessesCpu {
  const readings: ProcessesCpu = new Map();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // gone since the listing
    }
    if (comm !== name) continue;
    const cpu = procCpuUs(pid);
    if (Number.isFinite(cpu)) readings.set(pid, cpu);
  }
  return readings;
}

/**
 * The CPU (µs) the processes named as in `before` used since it was read: a process started since
 * (a new server backend) counts from 0. One that ended meanwhile is not counted: read before closing
 * the connections its work is on.
 */
export function cpuSince(before: ProcessesCpu, name: string): number {
  let used = 0;
  for (const [pid, cpu] of processesCpu(name)) used += cpu - (before.get(pid) ?? 0);
  return used;
}
