import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { openDatabase } from '../src/db/open-database.js';
import { querySpendLogs } from '../src/db/spend-repo.js';
import { POSTGRES_URL } from './db-engines.js';
import { ENGINES, type Engine, MASTER_KEY } from './harness.js';
import { dropSchema, uniqueName } from './scale/shared-pair.js';
import { type CliProcess, listeningUrl, runCli } from './scale/spawn-cli.js';

// Real svc-router processes stopped with SIGTERM while undici clients keep their connections open, as
// a load balancer's or an SDK's pool does, or by an exception nothing caught. Each describe stops one
// process and reads what happened.

/** Streamed in 11 frames, 60 ms apart: a stream still under way when SIGTERM comes. */
const STREAM_TEXT = 'one two three four five six seven eight nine ten '.repeat(3).trim();

/**
 * A svc-router process on `engine`, serving `groups` (model group -> mock path), and its database;
 * `preload`: the source of a module node imports before the gateway.
 */
async function startCli(
  engine: Engine,
  mock: MockProvider,
  groups: Record<string, string>,
  general: Record<string, unknown>,
  preload?: string,
) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sigterm-'));
  const schema = uniqueName('sigterm');
  const database =
    engine === 'postgres' ? { database_url: POSTGRES_URL, database_schema: schema } : { data_dir: dir };
  const config = join(dir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      model_list: Object.entries(groups).map(([group, path]) => ({
        model_name: group,
        svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}${path}/v1`, api_key: 'sk-up-0000' },
      })),
      general_settings: { master_key: MASTER_KEY, log_level: 'silent', ...database, ...general },
    }),
  );
  const nodeArgs: string[] = [];
  if (preload !== undefined) {
    await writeFile(join(dir, 'preload.mjs'), preload);
    nodeArgs.push('--import', pathToFileURL(join(dir, 'preload.mjs')).href);
  }
  const cli = runCli(['--config', config, '--port', '0'], {}, nodeArgs);
  const url = await listeningUrl(cli);
  return {
    cli,
    url,
    /** Every spend row's call id, read once the process has exited. */
    loggedCallIds: async (): Promise<string[]> => {
      const db: Database = await openDatabase(
        engine === 'postgres' ? { url: POSTGRES_URL, schema } : { dataDir: dir },
      );
      try {
        return (await querySpendLogs(db, { limit: 1000 })).map((r) => r.call_id);
      } finally {
        await db.close();
      }
    },
    cleanup: async () => {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      if (engine === 'postgres') await dropSchema(schema);
    },
  };
}

/** One keep-alive connection (an undici Client), and when it was closed. */
function connection(url: string) {
  const client = new Client(url, { keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
  const state = { client, closedAt: undefined as number | undefined };
  client.on('disconnect', () => {
    state.closedAt ??= performance.now();
  });
  return state;
}

/** A chat call on `conn`: its status, `connection` header, call id, body, and when the body ended. */
async function chat(conn: ReturnType<typeof connection>, model: string, stream = false) {
  const res = await conn.client.request({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream }),
  });
  let body = '';
  const firstData = new Promise<void>((resolve) => {
    res.body.once('data', () => resolve());
  });
  const ended = (async () => {
    for await (const part of res.body) body += part;
    return { body, endedAt: performance.now() };
  })();
  return {
    status: res.statusCode,
    connection: res.headers.connection,
    callId: res.headers['x-svc-call-id'] as string,
    firstData,
    ended,
  };
}

/** Resolves once `check` holds, polling every 10 ms. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

/** The exit code, and when the process exited. */
async function exitOf(cli: CliProcess): Promise<{ code: number | string; at: number }> {
  const code = await cli.exited;
  return { code, at: performance.now() };
}

describe.each(ENGINES)('svc-router on SIGTERM with keep-alive clients (%s)', (engine) => {
  let mock: MockProvider;
  let proxy: Awaited<ReturnType<typeof startCli>>;
  const seen = {} as {
    sigtermAt: number;
    exit: { code: number | string; at: number };
    idle: ReturnType<typeof connection>;
    idleCallId: string;
    plain: Array<{
      conn: ReturnType<typeof connection>;
      status: number;
      connection: unknown;
      callId: string;
      endedAt: number;
    }>;
    stream: { conn: ReturnType<typeof connection>; body: string; callId: string; endedAt: number };
    logged: string[];
  };

  beforeAll(async () => {
    mock = await startMockProvider();
    mock.setBehavior('/slow', { content: 'ok', delayMs: 300 });
    mock.setBehavior('/stream', { content: STREAM_TEXT, stream: { chunkDelayMs: 60 } });
    // a drain_timeout far above the answers' times: waiting for it shows as seconds
    proxy = await startCli(
      engine,
      mock,
      { fast: '/fast', slow: '/slow', streamed: '/stream' },
      {
        drain_timeout: 20,
        spend_flush_interval: 5,
      },
    );
    seen.idle = connection(proxy.url);
    const idleCall = await chat(seen.idle, 'fast');
    await idleCall.ended;
    seen.idleCallId = idleCall.callId;
    const streamConn = connection(proxy.url);
    const streamCall = await chat(streamConn, 'streamed', true);
    await streamCall.firstData;
    const plainConns = [connection(proxy.url), connection(proxy.url), connection(proxy.url)];
    const plainCalls = plainConns.map((conn) => chat(conn, 'slow'));
    // every plain call has reached the upstream, none is answered yet; the stream is under way
    await until(() => mock.hits('/slow/') === 3);
    const exited = exitOf(proxy.cli);
    seen.sigtermAt = performance.now();
    proxy.cli.child.kill('SIGTERM');
    seen.plain = await Promise.all(
      plainCalls.map(async (call, i) => {
        const { status, connection, callId, ended } = await call;
        return { conn: plainConns[i]!, status, connection, callId, endedAt: (await ended).endedAt };
      }),
    );
    const { body, endedAt } = await streamCall.ended;
    seen.stream = { conn: streamConn, body, callId: streamCall.callId, endedAt };
    seen.exit = await exited;
    seen.logged = await proxy.loggedCallIds();
    for (const conn of [seen.idle, streamConn, ...plainConns]) await conn.client.destroy();
  }, 120_000);

  afterAll(async () => {
    await proxy?.cleanup();
    await mock?.close();
  });

  it('closes an idle keep-alive connection at once', () => {
    expect(seen.idle.closedAt! - seen.sigtermAt).toBeLessThan(1000);
  });

  it('answers every call in flight, saying connection: close', () => {
    expect(seen.plain.map((p) => [p.status, p.connection])).toEqual([
      [200, 'close'],
      [200, 'close'],
      [200, 'close'],
    ]);
  });

  it('sends a stream in flight to its end', () => {
    expect(seen.stream.body).toContain('data: [DONE]');
  });

  it('closes each connection as soon as its answer is out', () => {
    for (const { conn, endedAt } of [...seen.plain, seen.stream])
      expect(conn.closedAt! - endedAt).toBeLessThan(1000);
  });

  it('exits 0 right after the last call ends, not after drain_timeout', () => {
    const lastEnd = Math.max(seen.stream.endedAt, ...seen.plain.map((p) => p.endedAt));
    expect(seen.exit.code).toBe(0);
    expect(seen.exit.at - lastEnd).toBeLessThan(5000);
  });

  it('writes the spend row of every call', () => {
    const calls = [seen.idleCallId, seen.stream.callId, ...seen.plain.map((p) => p.callId)];
    expect(calls.filter((id) => !seen.logged.includes(id))).toEqual([]);
  });
});

describe('svc-router on SIGTERM with calls that do not end (drain_timeout: 0.5)', () => {
  let mock: MockProvider;
  let proxy: Awaited<ReturnType<typeof startCli>>;
  const seen = {} as {
    sigtermAt: number;
    exit: { code: number | string; at: number };
    streamCallId: string;
    logged: string[];
  };

  beforeAll(async () => {
    mock = await startMockProvider({ record: false });
    mock.setBehavior('/hang', { fault: 'hang' });
    mock.setBehavior('/stall', { content: STREAM_TEXT, stream: { stallAfter: 2 } });
    proxy = await startCli(
      'postgres',
      mock,
      { hanging: '/hang', stalling: '/stall' },
      { drain_timeout: 0.5 },
    );
    const conns = [connection(proxy.url), connection(proxy.url)];
    const stream = await chat(conns[0]!, 'stalling', true);
    await stream.firstData;
    void stream.ended.catch(() => undefined); // cut at drain_timeout
    seen.streamCallId = stream.callId;
    void chat(conns[1]!, 'hanging').catch(() => undefined);
    await until(() => mock.inFlight === 2);
    const exited = exitOf(proxy.cli);
    seen.sigtermAt = performance.now();
    proxy.cli.child.kill('SIGTERM');
    seen.exit = await exited;
    seen.logged = await proxy.loggedCallIds();
    for (const conn of conns) await conn.client.destroy();
  }, 120_000);

  afterAll(async () => {
    await proxy?.cleanup();
    await mock?.close();
  });

  it('exits 0 once drain_timeout has passed, cutting the calls left', () => {
    expect(seen.exit.code).toBe(0);
    expect(seen.exit.at - seen.sigtermAt).toBeGreaterThanOrEqual(500);
    expect(seen.exit.at - seen.sigtermAt).toBeLessThan(5000);
  });

  it('writes the spend rows of the calls it cut', () => {
    expect(seen.logged).toHaveLength(2);
    expect(seen.logged).toContain(seen.streamCallId);
  });
});

describe('svc-router on an exception nothing caught', () => {
  let mock: MockProvider;
  let proxy: Awaited<ReturnType<typeof startCli>>;
  const seen = {} as {
    exit: number | string;
    answered: string[];
    inFlight: { status: number; callId: string; body: string };
    logged: string[];
    output: string;
  };

  beforeAll(async () => {
    mock = await startMockProvider();
    mock.setBehavior('/slow', { content: 'ok', delayMs: 300 });
    // SIGUSR2 makes the process throw where nothing catches it, as a bug in a timer would
    const preload =
      "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('a bug nobody caught'); }));\n";
    // spend rows wait 30 s to be written: only a flush on the way out writes them
    proxy = await startCli(
      'pglite',
      mock,
      { fast: '/fast', slow: '/slow' },
      { spend_flush_interval: 30 },
      preload,
    );
    const conn = connection(proxy.url);
    seen.answered = [];
    for (let i = 0; i < 2; i++) {
      const call = await chat(conn, 'fast');
      await call.ended;
      seen.answered.push(call.callId);
    }
    const slowConn = connection(proxy.url);
    const slow = chat(slowConn, 'slow');
    await until(() => mock.hits('/slow/') === 1);
    proxy.cli.child.kill('SIGUSR2');
    const { status, callId, ended } = await slow;
    seen.inFlight = { status, callId, body: (await ended).body };
    seen.exit = await proxy.cli.exited;
    seen.output = proxy.cli.output();
    seen.logged = await proxy.loggedCallIds();
    for (const c of [conn, slowConn]) await c.client.destroy();
  }, 60_000);

  afterAll(async () => {
    await proxy?.cleanup();
    await mock?.close();
  });

  it('logs the error with its stack', () => {
    expect(seen.output).toMatch(/uncaught exception: Error: a bug nobody caught\n\s+at /);
  });

  it('answers the call in flight', () => {
    expect([seen.inFlight.status, JSON.parse(seen.inFlight.body).choices[0].message.content]).toEqual([
      200,
      'ok',
    ]);
  });

  it('writes the spend rows still queued', () => {
    expect(seen.logged.sort()).toEqual([...seen.answered, seen.inFlight.callId].sort());
  });

  it('exits 1', () => {
    expect(seen.exit).toBe(1);
  });
});
