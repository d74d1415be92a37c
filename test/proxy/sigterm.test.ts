import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/proxy/db/open-database.js';
import { querySpendLogs } from '../../src/proxy/db/spend-repo.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';

const MASTER = 'sk-master-sigterm-0000';

describe('svc-router on SIGTERM', () => {
  let mock: MockProvider;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockProvider();
    mock.setBehavior('/east', { content: 'ok', delayMs: 40 });
    dir = await mkdtemp(join(tmpdir(), 'svc-sigterm-'));
  });
  afterAll(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('drains calls in flight, writes every spend row and exits 0', async () => {
    const config = join(dir, 'config.yaml');
    await writeFile(
      config,
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_base: "${mock.url}/east/v1", api_key: sk-up-0000 }
general_settings: { master_key: ${MASTER}, spend_flush_interval: 5 }
`,
    );
    const cli = join(import.meta.dirname, '../../src/cli/main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--config', config, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const match = /listening on (\S+)/.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    const served: string[] = [];
    const call = async () => {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      }).catch(() => undefined);
      if (res?.status === 200) served.push(res.headers.get('x-svc-call-id')!);
      await res?.body?.cancel();
    };
    // 20 workers keep calls in flight; SIGTERM lands mid-load (spend rows are still buffered: 5 s flushes)
    let stop = false;
    const workers = Array.from({ length: 20 }, async () => {
      while (!stop) await call();
    });
    await new Promise((r) => setTimeout(r, 400));
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    stop = true;
    await Promise.all(workers);
    expect(code).toBe(0);
    expect(served.length).toBeGreaterThan(20);
    const db = await openDatabase({ dataDir: join(dir, '.svc-router') });
    try {
      const rows = await querySpendLogs(db, { limit: 1000 });
      const logged = new Set(rows.map((r) => r.call_id));
      expect(served.filter((id) => !logged.has(id))).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
