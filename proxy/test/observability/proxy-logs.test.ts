import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { createProxyLogger, redactedUrl } from '../../src/observability/proxy-logger.js';
import { MASTER_KEY, mockDeployment } from '../harness.js';

/** A pino destination that keeps every line. */
function capture(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line) => void lines.push(line) };
}

describe('the proxy logger', () => {
  it('writes JSON lines with credential fields redacted by path', () => {
    const out = capture();
    const log = createProxyLogger({ level: 'info', stream: out });
    log.info(
      {
        req: { headers: { authorization: 'Bearer sk-live-1', 'x-api-key': 'sk-live-2' } },
        api_key: 'sk-live-3',
        settings: { master_key: 'sk-live-4', database_url: 'postgres://u:pw@h/db', model: 'gpt-4o' },
      },
      'hello',
    );
    expect(out.lines).toHaveLength(1);
    const line = JSON.parse(out.lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'hello',
      api_key: '[Redacted]',
      req: { headers: { authorization: '[Redacted]', 'x-api-key': '[Redacted]' } },
      settings: { master_key: '[Redacted]', database_url: '[Redacted]', model: 'gpt-4o' },
    });
    expect(out.lines[0]).not.toMatch(/sk-live|pw@/);
  });

  it('writes nothing at log_level silent', () => {
    const out = capture();
    createProxyLogger({ level: 'silent', stream: out }).error({ api_key: 'x' }, 'nothing');
    expect(out.lines).toEqual([]);
  });

  it('redacts the values of credential-named query parameters in URLs', () => {
    expect(redactedUrl('/spend/logs?key=sk-abc&user_id=u1')).toBe(
      '/spend/logs?key=%5BRedacted%5D&user_id=u1',
    );
    expect(redactedUrl('/v1/models')).toBe('/v1/models');
  });
});

describe('proxy request logs', () => {
  let mock: MockProvider;
  let proxy: RunningProxy;
  let dataDir: string;
  const out = capture();

  beforeAll(async () => {
    mock = await startMockProvider();
    dataDir = await mkdtemp(join(tmpdir(), 'svc-logs-'));
    proxy = await startProxy({
      port: 0,
      env: {},
      logStream: out,
      config: {
        model_list: [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'backup')],
        router_settings: { num_retries: 0, fallbacks: [{ 'gpt-4o': ['backup'] }] },
        general_settings: { master_key: MASTER_KEY, data_dir: dataDir, log_level: 'debug' },
      },
    });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs every request as JSON with its call id, and never a key', async () => {
    const admin = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };
    const generated = await fetch(`${proxy.url}/key/generate`, {
      method: 'POST',
      headers: admin,
      body: '{}',
    });
    const { key } = (await generated.json()) as { key: string };
    mock.setBehavior('/east', { status: 500 }); // a failure and a fallback: the router logs both
    const chat = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    const callId = chat.headers.get('x-svc-call-id')!;
    await (await fetch(`${proxy.url}/spend/logs?key=${key}`, { headers: admin })).text();

    const lines = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // one line per request at the default level: its method, URL, status and time together
    const requestLines = lines.filter((l) => l.call_id === callId && String(l.msg).startsWith('request'));
    expect(requestLines.map((l) => l.msg)).toEqual(['request completed']);
    expect(requestLines[0]).toMatchObject({
      req: { method: 'POST', url: '/v1/chat/completions' },
      res: { statusCode: 200 },
    });
    expect(requestLines[0]!.responseTime).toEqual(expect.any(Number));
    expect(lines.some((l) => String(l.msg).startsWith('falling back from gpt-4o to backup'))).toBe(true);
    const text = out.lines.join('');
    for (const secret of [MASTER_KEY, key, 'sk-upstream-east-0000', 'sk-upstream-west-0000'])
      expect(text).not.toContain(secret);
  });
});
