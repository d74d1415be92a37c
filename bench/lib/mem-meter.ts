import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { request } from 'undici';

/** The open sockets of a process, by whom they connect to. */
export interface SocketCount {
  total: number;
  /** Accepted from clients (local port: the server's). */
  inbound: number;
  /** Connected to the upstream (remote port: the upstream's). */
  upstream: number;
  /** The rest: listening sockets, the database's, Unix sockets. */
  other: number;
}

/** A process's memory (bytes, from process.memoryUsage) and open sockets. */
export interface MemReading {
  heapUsed: number;
  heapTotal: number;
  /** Resident set of the whole process: every thread, WebAssembly memory (PGlite's) included. */
  rss: number;
  /** RSS by kind (Linux /proc/self/status; NaN elsewhere): anonymous memory, mapped files, shared memory. */
  rssAnon: number;
  rssFile: number;
  rssShmem: number;
  external: number;
  arrayBuffers: number;
  /** Whether a full GC ran just before the reading. */
  gc: boolean;
  sockets: SocketCount;
}

/** The path a bench server answers its MemReading on; `?gc=1` runs a full GC first. */
export const MEM_PATH = '/__mem';

// this process's own GC, without a --expose-gc flag on the command line (tsx starts the process)
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const TCP_TABLES = ['/proc/self/net/tcp', '/proc/self/net/tcp6'];

/** TCP sockets by inode: local and remote port (Linux /proc; empty elsewhere). */
function tcpPorts(): Map<string, { local: number; remote: number }> {
  const byInode = new Map<string, { local: number; remote: number }>();
  for (const table of TCP_TABLES) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const port = (address: string) => Number.parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      byInode.set(fields[9]!, { local: port(fields[1]!), remote: port(fields[2]!) });
    }
  }
  return byInode;
}

/** Counts this process's open sockets (file descriptors that are sockets), NaN where /proc is missing. */
export function countSockets(ports: { server: number; upstream: number }): SocketCount {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return { total: Number.NaN, inbound: Number.NaN, upstream: Number.NaN, other: Number.NaN };
  }
  const tcp = tcpPorts();
  const count: SocketCount = { total: 0, inbound: 0, upstream: 0, other: 0 };
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing (the listing's own descriptor among them)
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode === undefined) continue;
    count.total++;
    const socket = tcp.get(inode);
    if (socket && socket.remote !== 0 && socket.local === ports.server) count.inbound++;
    else if (socket && socket.remote === ports.upstream) count.upstream++;
    else count.other++;
  }
  return count;
}

/** RssAnon, RssFile and RssShmem of /proc/self/status, in bytes (NaN where there is none). */
function rssKinds(): { rssAnon: number; rssFile: number; rssShmem: number } {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux: NaN below
  }
  const kB = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rssAnon: kB('RssAnon'), rssFile: kB('RssFile'), rssShmem: kB('RssShmem') };
}

/** Reads this process's memory and sockets; `gc` runs two full collections first (heap then is live data). */
export function readMemory(ports: { server: number; upstream: number }, gc: boolean): MemReading {
  if (gc) {
    collect();
    collect(); // a second pass frees what the first one's finalizers released
  }
  const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
  return {
    heapUsed,
    heapTotal,
    rss,
    ...rssKinds(),
    external,
    arrayBuffers,
    gc,
    sockets: countSockets(ports),
  };
}

/**
 * Answers a MemReading when `req` asks for one; true when it did (the caller then stops). `ports()`
 * says which sockets are inbound (the server's port) and which go upstream.
 */
export function answerMemory(
  req: IncomingMessage,
  res: ServerResponse,
  ports: () => { server: number; upstream: number },
): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== MEM_PATH) return false;
  const reading = readMemory(ports(), url.searchParams.get('gc') === '1');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reading));
  return true;
}

/** Asks a bench server (at `url`, which ends before MEM_PATH) for its MemReading. */
export async function readMem(url: string, options: { gc: boolean }): Promise<MemReading> {
  const res = await request(`${url}${MEM_PATH}${options.gc ? '?gc=1' : ''}`);
  return (await res.body.json()) as MemReading;
}
