// Issue 22's items that one gateway can show side by side (the others need a gateway of their own:
// isolated.ts). Each makes its calls with a key of its own, so its spend rows are that key's rows.
import { once } from 'node:events';
import { connect } from 'node:net';
import { postThenLeave } from '../../proxy/test/leaving-client.js';
import type { MockProvider } from '../../src/testing/index.js';
import { admin, call, chat, newKey, rowsOnce, seen } from './http.js';
import type { Check } from './result.js';

export interface Ctx {
  url: string;
  mock: MockProvider;
  /** A port nothing listens on: the `broken` group's upstream. */
  closedPort: number;
}

const USER = [{ role: 'user', content: 'hi' }];
/** The text the resumable stream carries: 24 words, cut after 3 chunks. */
export const RESUME_TEXT = Array.from({ length: 24 }, (_, i) => `word${i}`).join(' ');

/** The deployments this file's checks call, on the mock (all `mockDeployment`s but `broken`). */
export const HOLE_GROUPS = ['m', 'premium', 'leave', 'cut-plain', 'ra', 'ra-backup', 'to', 'resume', 'slot'];

/** The text of a stream's content deltas, and whether it ended with `[DONE]` and no error event. */
export function readSse(text: string): { content: string; done: boolean; error: boolean } {
  let content = '';
  let error = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6));
    if (event.error) error = true;
    content += event.choices?.[0]?.delta?.content ?? '';
  }
  return { content, done: text.includes('data: [DONE]'), error };
}

export function holeChecks(ctx: Ctx): Check[] {
  const { url, mock } = ctx;
  return [
    {
      id: '#22.1',
      tried:
        'a key with `models: ["m"]` asks for `premium`, then for `m` with `fallbacks: ["premium"]` and `mock_testing_fallbacks`',
      run: async () => {
        const k = await newKey(url, { models: ['m'], max_budget: 0.5 });
        const direct = await chat(url, k.headers, 'premium');
        const viaFallback = await chat(url, k.headers, 'm', {
          fallbacks: ['premium'],
          mock_testing_fallbacks: true,
        });
        const rows = await rowsOnce(url, k.hash, 1);
        const reached = mock.hits('/premium/');
        return {
          served: Number(direct.status === 403) + Number(viaFallback.status !== 200 && reached === 0),
          total: 2,
          rows: rows.length,
          rowsExpected: 1,
          holds: rows.every((r) => r.model_group !== 'premium'),
          note: `direct: ${direct.status} ${direct.json?.error?.code}; via fallback: ${viaFallback.status} ${viaFallback.json?.error?.code}; premium reached ${reached} times`,
        };
      },
    },
    {
      id: '#22.2',
      tried:
        'three clients close their socket after the `finish_reason` chunk, before the usage chunk; one stream the upstream cuts after 3 chunks',
      run: async () => {
        mock.setBehavior('/leave/', { content: 'one two three four', stream: { lastChunkDelayMs: 300 } });
        mock.setBehavior('/cutplain/', { content: RESUME_TEXT, stream: { cutAfter: 3 } });
        const k = await newKey(url, { max_budget: 10 });
        for (let i = 0; i < 3; i++) {
          const left = await postThenLeave(
            url,
            '/v1/chat/completions',
            k.headers,
            { model: 'leave', messages: USER, stream: true, stream_options: { include_usage: true } },
            '"finish_reason":"stop"',
          );
          seen.push(left.received);
        }
        const cut = await chat(url, k.headers, 'cut-plain', { stream: true });
        const rows = await rowsOnce(url, k.hash, 4, 15_000);
        const charged = rows.filter((r) => Number(r.cost) > 0);
        return {
          served: charged.length,
          total: 4,
          rows: rows.length,
          rowsExpected: 4,
          holds: readSse(cut.text).error,
          note: `rows charged: ${charged.length}/4 (${rows.map((r) => `${r.error_code ?? r.status} $${Number(r.cost).toFixed(6)}${r.usage_estimated ? ' counted' : ''}`).join(', ')})`,
        };
      },
    },
    {
      id: '#22.3',
      tried: 'four calls sent with one W3C `traceparent` (OpenTelemetry export on)',
      run: async () => {
        const k = await newKey(url);
        const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
        const headers = { ...k.headers, traceparent: `00-${trace}-00f067aa0ba902b7-01` };
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await chat(url, headers, 'm'));
        const ids = new Set(answers.map((a) => a.headers.get('x-svc-call-id')));
        const rows = await rowsOnce(url, k.hash, 4);
        const traced = rows.filter((r) => r.trace_id === trace).length;
        return {
          served: answers.filter((a) => a.status === 200).length,
          total: 4,
          rows: rows.length,
          rowsExpected: 4,
          holds: ids.size === 4 && traced === 4,
          note: `${ids.size} distinct call ids; ${traced} rows carry the trace id`,
        };
      },
    },
    {
      id: '#22.6',
      tried:
        'input the schema accepts and the database cannot store: a date in year -271821, NUL and lone surrogates in aliases, metadata and filters, `rpm_limit: 2147483648`, `duration: "99999999999d"`, metadata 10,000 deep',
      run: async () => {
        const k = await newKey(url);
        let deep = '1';
        for (let i = 0; i < 10_000; i++) deep = `{"a":${deep}}`;
        const tries: Array<[string, Promise<Awaited<ReturnType<typeof call>>>]> = [
          ['start_date', call(url, 'GET', '/spend/logs?start_date=-271821-04-20T00:00:00.000Z', k.headers)],
          ['user_id', call(url, 'GET', '/spend/logs?user_id=a%00b')],
          ['key_alias', call(url, 'POST', '/key/generate', admin, { key_alias: 'a\u0000b' })],
          ['key_alias', call(url, 'POST', '/key/generate', admin, { key_alias: 'a\ud800b' })],
          ['metadata', call(url, 'POST', '/key/generate', admin, { metadata: { note: 'x\u0000' } })],
          ['rpm_limit', call(url, 'POST', '/key/generate', admin, { rpm_limit: 2147483648 })],
          ['duration', call(url, 'POST', '/key/generate', admin, { duration: '99999999999d' })],
          ['metadata', call(url, 'POST', '/key/generate', admin, `{"metadata":${deep}}`)],
          ['team_alias', call(url, 'POST', '/team/new', admin, { team_alias: 'a\udc00' })],
        ];
        const bad: string[] = [];
        let served = 0;
        for (const [field, pending] of tries) {
          const a = await pending;
          if (a.status === 400 && String(a.json?.error?.message).includes(field)) served++;
          else bad.push(`${field}: ${a.status} ${a.text.slice(0, 120)}`);
        }
        return {
          served,
          total: tries.length,
          rows: null,
          rowsExpected: null,
          note: bad.length === 0 ? 'each a 400 naming the field' : bad.join('; '),
        };
      },
    },
    {
      id: '#22.7',
      tried: '`/v1/models` and `/model_group/info` with a key limited to `m`',
      run: async () => {
        const k = await newKey(url, { models: ['m'] });
        const models = await call(url, 'GET', '/v1/models', k.headers);
        const info = await call(url, 'GET', '/model_group/info', k.headers);
        const listed = (models.json?.data ?? []).map((d: { id: string }) => d.id);
        const groups = (info.json?.data ?? []).map((d: { model_group: string }) => d.model_group);
        return {
          served: Number(listed.join() === 'm') + Number(groups.join() === 'm'),
          total: 2,
          rows: null,
          rowsExpected: null,
          note: `/v1/models: [${listed.join(', ')}]; /model_group/info: [${groups.join(', ')}]`,
        };
      },
    },
    {
      id: '#22.8',
      tried: 'a body that is not JSON (`{"model": "m",\\n "messages": }`)',
      run: async () => {
        const a = await call(url, 'POST', '/v1/chat/completions', admin, '{"model": "m",\n "messages": }');
        const message = String(a.json?.error?.message);
        return {
          served: Number(a.status === 400 && /line \d+, column \d+/.test(message)),
          total: 1,
          rows: null,
          rowsExpected: null,
          note: `${a.status} ${a.json?.error?.code}: ${message}`,
        };
      },
    },
    {
      id: '#22.9',
      tried: 'a call whose only deployment refuses connections (nothing listens on its port)',
      run: async () => {
        const k = await newKey(url);
        const a = await chat(url, k.headers, 'broken', { num_retries: 0 });
        const rows = await rowsOnce(url, k.hash, 1);
        const shows = a.text.includes(`:${ctx.closedPort}`) || a.text.includes('127.0.0.1');
        return {
          served: Number(a.status >= 500 && !shows),
          total: 1,
          rows: rows.length,
          rowsExpected: 1,
          note: `${a.status}: ${String(a.json?.error?.message).slice(0, 140)}`,
        };
      },
    },
    {
      id: '#22.11',
      tried:
        'a 6 MB stream nobody reads, on a deployment with `max_parallel_requests: 1` and `stream_timeout: 0.5`; then another call on it',
      run: async () => {
        mock.setBehavior('/slot/', {
          raw: { headers: { 'content-type': 'text/event-stream' }, body: bigStream() },
        });
        const k = await newKey(url);
        const socket = await streamNobodyReads(url, k.key, 'slot');
        mock.setBehavior('/slot/', { content: 'served' });
        const next = await chat(url, k.headers, 'slot', { timeout: 5 });
        socket.destroy();
        const rows = await rowsOnce(url, k.hash, 2);
        return {
          served: Number(next.status === 200 && next.ms < 3000),
          total: 1,
          rows: rows.length,
          rowsExpected: 2,
          note: `the next call: ${next.status} after ${Math.round(next.ms)} ms; rows: ${rows.map((r) => r.error_code ?? r.status).join(', ')}`,
        };
      },
    },
    {
      id: '#22.13',
      tried: 'a 429 with `retry-after: 1` on the only deployment of a group with a fallback group',
      run: async () => {
        mock.setBehavior('/ra/', { status: 429, failTimes: 1, headers: { 'retry-after': '1' } });
        const k = await newKey(url);
        const a = await chat(url, k.headers, 'ra');
        const rows = await rowsOnce(url, k.hash, 1);
        const fallbackHits = mock.hits('/ra-backup/');
        return {
          served: Number(a.status === 200 && fallbackHits === 0 && rows[0]?.model_id === 'ra'),
          total: 1,
          rows: rows.length,
          rowsExpected: 1,
          note: `${a.status} from \`${rows[0]?.model_id}\` after ${Math.round(a.ms)} ms; fallback reached ${fallbackHits} times`,
        };
      },
    },
    {
      id: '#22.14',
      tried:
        'one call past the router’s `timeout: 0.3` on a group’s only deployment (`num_retries: 0`), then a call it answers at once',
      run: async () => {
        mock.setBehavior('/to/', { delayMs: 1000 });
        const k = await newKey(url);
        const slow = await chat(url, k.headers, 'to', { num_retries: 0 });
        mock.setBehavior('/to/', {});
        const next = await chat(url, k.headers, 'to', { num_retries: 0 });
        const rows = await rowsOnce(url, k.hash, 2);
        return {
          served: Number(slow.status === 408) + Number(next.status === 200),
          total: 2,
          rows: rows.length,
          rowsExpected: 2,
          note: `the slow call: ${slow.status} ${slow.json?.error?.code}; the next: ${next.status}${next.status === 200 ? '' : ` ${next.json?.error?.code}`}`,
        };
      },
    },
    {
      id: '#22.15',
      tried:
        '`stream_resume: true`: a stream cut after 3 chunks; its fallback group has a deployment with `supports_assistant_prefill`',
      run: async () => {
        mock.setBehavior('/cut/', { content: RESUME_TEXT, stream: { cutAfter: 3 } });
        mock.setBehavior('/prefill/', { content: RESUME_TEXT });
        const k = await newKey(url);
        const streamed = { stream: true, stream_options: { include_usage: true } };
        const a = await chat(url, k.headers, 'resume', streamed);
        const sse = readSse(a.text);
        const [row] = await rowsOnce(url, k.hash, 1);
        // the same answer unbroken, from the prefill deployment: what the continuation adds
        const b = await newKey(url);
        await chat(url, b.headers, 'resume-b', streamed);
        const [plain] = await rowsOnce(url, b.hash, 1);
        const whole = sse.content.replace(/\s+/g, ' ').trim() === RESUME_TEXT;
        const tokens = (r: Record<string, unknown> | undefined) =>
          `${r?.prompt_tokens} prompt + ${r?.completion_tokens} completion tokens, $${Number(r?.cost).toFixed(6)}`;
        return {
          served: Number(a.status === 200 && whole && sse.done && !sse.error),
          total: 1,
          rows: Number(row !== undefined) + Number(plain !== undefined),
          rowsExpected: 2,
          holds: row?.status === 'success',
          note: `one whole answer: ${whole}; its row: ${row?.status} from \`${row?.model_id}\`, ${tokens(row)}; the same answer unbroken: ${tokens(plain)}`,
        };
      },
    },
  ];
}

/** About 6 MB of answer in 100 kB chunks: more than the sockets between the gateway and a client hold. */
function bigStream(): string[] {
  const frame = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const text = frame({ content: 'x'.repeat(100_000) }, null);
  return [...Array.from({ length: 60 }, () => text), frame({}, 'stop'), 'data: [DONE]\n\n'];
}

/** Asks for a stream on a raw socket, waits for its first bytes, then stops reading (backpressure). */
async function streamNobodyReads(url: string, key: string, model: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ model, messages: USER, stream: true });
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const [first] = (await once(socket, 'data')) as [Buffer];
  seen.push(first.toString('latin1'));
  socket.pause();
  return socket;
}
