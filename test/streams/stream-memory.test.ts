import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router, type RouterSettings } from '../../src/index.js';
import { StreamingHandler } from '../../src/providers/shared/streamed-response.js';
import { exposeGc } from '../support/expose-gc.js';
import { type RouteServer, startRouteServer } from '../support/route-server.js';

const event = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

// the upstream sends the opener and the first content, then holds the rest until the test lets it go
let finish: () => void = () => {};
let server: RouteServer;
const routers: Router[] = [];
const recordsDir = mkdtempSync(join(tmpdir(), 'stream-memory-'));
// call records and spans settle when the stream ends: they must not keep its first chunk until then
const spans = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(spans)],
});
beforeAll(async () => {
  server = await startRouteServer({
    '/v1/chat/completions': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ role: 'assistant', content: '' }));
      res.write(event({ content: 'Hel' }));
      finish = () => res.end(`${event({ content: 'lo' }, 'stop')}data: [DONE]\n\n`);
    },
  });
});
afterAll(async () => {
  finish(); // a failed test leaves its stream open
  for (const router of routers) await router.close();
  server.close();
  await tracer.shutdown();
  trace.disable();
  rmSync(recordsDir, { recursive: true, force: true });
});

function routerWith(settings: RouterSettings): Router {
  const router = new Router(
    [
      {
        model_name: 'm',
        svc_params: { model: 'openai/gpt-4o', api_base: `${server.base}/v1`, api_key: 'k' },
      },
    ],
    settings,
  );
  routers.push(router);
  return router;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('what a stream holds while it is read', () => {
  // [case, settings, call spans ended and call records made once the stream has ended]
  const cases: [string, () => RouterSettings, number][] = [
    ['by default', () => ({}), 0],
    [
      'with call records and spans',
      () => {
        trace.setGlobalTracerProvider(tracer); // from here on: the first case ran without spans
        return { callbacks: [{ type: 'file', path: join(recordsDir, 'calls.jsonl') }] };
      },
      1,
    ],
  ];
  it.each(cases)(
    'lets go of a chunk it has handed over while it waits for the next, %s',
    async (_, settings, settledOnce) => {
      const gc = exposeGc();
      const router = routerWith(settings());
      const stream = await router.acompletion({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      const chunks = stream[Symbol.asyncIterator]();
      // the opener and the first content, read in a function of its own so that nothing on this stack
      // keeps them; the opener is the chunk the stream was opened with
      const handedOver = await (async () => {
        const opener = await chunks.next();
        await chunks.next();
        return new WeakRef(opener.value as object);
      })();
      for (let i = 0; i < 10 && handedOver.deref() !== undefined; i++) {
        await turn(); // a WeakRef's target lives at least until the end of the task that read it
        gc();
      }
      expect(handedOver.deref()).toBeUndefined();
      finish();
      let text = '';
      for (let step = await chunks.next(); !step.done; step = await chunks.next())
        text += step.value.choices[0]?.delta.content ?? '';
      expect(text).toBe('lo');
      // the call's span (its own, not an attempt's) ended and its record was made with the stream: the
      // layers that keep what they report ran
      expect(spans.getFinishedSpans().filter((span) => span.name.endsWith(' m'))).toHaveLength(settledOnce);
      const records = router.metrics().call_records.map((queue) => queue.pending + queue.delivered);
      expect(records).toEqual(settledOnce === 0 ? [] : [1]);
      await router.close();
    },
  );

  it("drops undici's raw header buffers once the answer has started", () => {
    // they are views on the socket read that brought them: a stream holding them holds that read
    const controller = {
      aborted: false,
      paused: false,
      reason: null,
      rawHeaders: [Buffer.from('content-type'), Buffer.from('text/event-stream')],
      abort: () => {},
      pause: () => {},
      resume: () => {},
    };
    let status = 0;
    const handler = new StreamingHandler(
      (response) => {
        status = response.statusCode;
      },
      () => {},
      1024,
      undefined,
    );
    handler.onRequestStart(controller);
    handler.onResponseStart(controller, 200, { 'content-type': 'text/event-stream' });
    expect(status).toBe(200);
    expect(controller.rawHeaders).toBeNull();
  });
});
