import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-records-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('file destination', () => {
  it('appends one JSON object per line, one line per call', async () => {
    const path = join(dir, 'calls.jsonl');
    await writeFile(path, '{"call_id":"earlier"}\n');
    const router = new Router([deployment(mock, 'a')], { callbacks: [{ type: 'file', path }] });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.aembedding({ model: 'gpt-4o', input: 'hi' });
    await router.close();
    const records = await lines(path);
    expect(records.map((r) => r.call_id)).toEqual(['earlier', expect.any(String), expect.any(String)]);
    expect(records.slice(1).map((r) => r.operation)).toEqual(['chat', 'embeddings']);
    expect(records[1]).toMatchObject({ model: 'gpt-4o', model_id: 'a', status: 'success' });
  });

  it('creates the file’s folder when it is missing', async () => {
    const path = join(dir, 'logs', 'today', 'calls.jsonl');
    const router = new Router([deployment(mock, 'a')], { callbacks: [{ type: 'file', path }] });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(await lines(path)).toHaveLength(1);
  });

  it('reads a relative path in a config file from the file’s folder', async () => {
    const config = join(dir, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        model_list: [deployment(mock, 'a')],
        svc_settings: { callbacks: [{ type: 'file', path: 'records/calls.jsonl' }] },
      }),
    );
    const router = Router.fromConfig(config);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(await lines(join(dir, 'records', 'calls.jsonl'))).toHaveLength(1);
  });
});
