import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { generalSettingsSchema } from '../../src/config/general-settings.js';
import { eventually, startTestProxy } from '../harness.js';

describe('general_settings.otel_exporter_otlp_endpoint', () => {
  afterAll(() => trace.disable());

  it('exports the proxy’s spans to the collector, flushed on close', async () => {
    const received: Array<{ path: string | undefined; bytes: number }> = [];
    const collector = createServer((req: IncomingMessage, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on('end', () => {
        received.push({ path: req.url, bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    try {
      const t = await startTestProxy('postgres', {
        general_settings: { otel_exporter_otlp_endpoint: `http://127.0.0.1:${port}/` },
      });
      const res = await fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...t.admin, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.text();
      const callId = res.headers.get('x-svc-call-id');
      // traced: the spend row names the call's trace
      await eventually(async () => {
        const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<{
          call_id: string;
          trace_id: string | null;
        }>;
        expect(rows.find((r) => r.call_id === callId)?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      });
      await t.close();
      expect(received.filter((r) => r.path === '/v1/traces' && r.bytes > 0).length).toBeGreaterThan(0);
    } finally {
      collector.close();
    }
  });

  it('rejects an endpoint that is not an http(s) URL, naming the field', () => {
    const parsed = generalSettingsSchema.safeParse({ otel_exporter_otlp_endpoint: 'grpc://collector:4317' });
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['otel_exporter_otlp_endpoint', 'expected an http(s) URL'],
    ]);
  });
});
