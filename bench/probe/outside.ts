// The outside probe's classes of attack: auth, route confusion, SQL injection, a budget race, bad input
// and slowloris. (Secrets are searched for at the end, over every answer and every database row.)
import { connect, type Socket } from 'node:net';
import type { MockProvider } from '../../src/testing/index.js';
import { admin, call, chat, newKey, rawRequest, rowsOnce, seen } from './http.js';
import type { Check } from './result.js';

const USER = [{ role: 'user', content: 'hi' }];

/** Groups this file calls on the mock. */
export const OUTSIDE_GROUPS = ['price'];

const SQL = [
  "' OR '1'='1",
  "x'; DROP TABLE svc_keys; --",
  '1) OR 1=1 --',
  '" OR ""="',
  "x'; SELECT pg_sleep(3); --",
  '%',
];

export function outsideChecks(url: string, mock: MockProvider): Check[] {
  return [
    {
      id: 'auth',
      tried:
        'no key, a made-up key, an expired key; key A reading, listing, deleting and spending as key B (key info, spend logs, stored responses, admin routes)',
      run: async () => {
        const a = await newKey(url, { models: ['m'] });
        const b = await newKey(url);
        const expired = await newKey(url, { duration: '1s' });
        const stored = await call(url, 'POST', '/v1/responses', b.headers, { model: 'm', input: 'hi' });
        await chat(url, b.headers, 'm');
        await rowsOnce(url, b.hash, 2);
        await new Promise((r) => setTimeout(r, 1100));
        const expect: Array<
          [string, Promise<Awaited<ReturnType<typeof call>>>, (s: number, body: string) => boolean]
        > = [
          ['no key, chat', chat(url, {}, 'm'), (s) => s === 401],
          ['no key, /key/list', call(url, 'GET', '/key/list', {}), (s) => s === 401],
          ['made-up key', chat(url, { authorization: 'Bearer sk-svc-made-up-0000' }, 'm'), (s) => s === 401],
          ['x-api-key made up', chat(url, { 'x-api-key': 'sk-nope' }, 'm'), (s) => s === 401],
          ['expired key', chat(url, expired.headers, 'm'), (s) => s === 401],
          [
            'A: /key/info of B',
            call(url, 'GET', `/key/info?key=${b.hash}`, a.headers),
            (s, t) => s >= 400 && !t.includes(b.hash),
          ],
          [
            'A: /spend/logs?key=B',
            call(url, 'GET', `/spend/logs?key=${b.hash}`, a.headers),
            (s, t) => !t.includes(b.hash) && (s >= 400 || t === '[]'),
          ],
          ['A: /key/list', call(url, 'GET', '/key/list', a.headers), (s) => s === 403],
          [
            'A: /key/delete B',
            call(url, 'POST', '/key/delete', a.headers, { keys: [b.hash] }),
            (s) => s === 403,
          ],
          ['A: /key/generate', call(url, 'POST', '/key/generate', a.headers, {}), (s) => s === 403],
          [
            'A: /config/update',
            call(url, 'POST', '/config/update', a.headers, { router_settings: { num_retries: 9 } }),
            (s) => s === 403,
          ],
          ['A: /spend/report', call(url, 'GET', '/spend/report', a.headers), (s) => s === 403],
          [
            'A: B’s stored response',
            call(url, 'GET', `/v1/responses/${stored.json?.id}`, a.headers),
            (s) => s === 404,
          ],
          ['A: a model it does not list', chat(url, a.headers, 'premium'), (s) => s === 403],
        ];
        const bad: string[] = [];
        for (const [what, pending, ok] of expect) {
          const res = await pending;
          if (!ok(res.status, res.text)) bad.push(`${what}: ${res.status}`);
        }
        const bStill = await chat(url, b.headers, 'm');
        return {
          served: expect.length - bad.length + Number(bStill.status === 200),
          total: expect.length + 1,
          rows: null,
          rowsExpected: null,
          holds: stored.status === 200,
          note: bad.length === 0 ? 'every one refused (401/403/404); B still served' : bad.join('; '),
        };
      },
    },
    {
      id: 'route confusion',
      tried:
        'a virtual key on admin routes spelled otherwise: `//key/list`, `/key/list/`, `/KEY/LIST`, `/v1/../key/list`, `/%6Bey/list`, `/key%2Flist`, `/key/list;x`, `/key/list%00`, a HEAD and an absolute-form target; GET on a POST route',
      run: async () => {
        const a = await newKey(url);
        const { host } = new URL(url);
        const paths = [
          '//key/list',
          '/key/list/',
          '/KEY/LIST',
          '/v1/../key/list',
          '/v1/chat/completions/../../key/list',
          '/%6Bey/list',
          '/key%2Flist',
          '/key/list;x',
          '/key/list%00',
          '/./key/list',
          `http://${host}/key/list`,
        ];
        const bad: string[] = [];
        for (const path of paths) {
          const text = await rawRequest(
            url,
            `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${a.key}\r\nconnection: close`,
          );
          if (/^HTTP\/1.1 2/.test(text) || text.includes('key_hash'))
            bad.push(`${path}: ${text.slice(9, 12)}`);
        }
        const head = await rawRequest(
          url,
          `HEAD /key/list HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${a.key}\r\nconnection: close`,
        );
        if (/^HTTP\/1.1 2/.test(head)) bad.push(`HEAD /key/list: ${head.slice(9, 12)}`);
        const get = await call(url, 'GET', '/key/generate', a.headers);
        if (get.status < 400) bad.push(`GET /key/generate: ${get.status}`);
        return {
          served: paths.length + 2 - bad.length,
          total: paths.length + 2,
          rows: null,
          rowsExpected: null,
          note: bad.length === 0 ? 'none answered 2xx or showed a key' : bad.join('; '),
        };
      },
    },
    {
      id: 'SQL injection',
      tried: `${SQL.length} injection strings (quotes, \`DROP TABLE\`, \`pg_sleep\`, \`%\`) in key ids, user and team filters of \`/spend/logs\`, \`/key/info\`, \`/team/info\`, key aliases and metadata, by the master key and a virtual key`,
      run: async () => {
        const a = await newKey(url);
        await chat(url, a.headers, 'm');
        await rowsOnce(url, a.hash, 1);
        const before = (await call(url, 'GET', '/key/list?size=1')).json?.total as number;
        const bad: string[] = [];
        let total = 0;
        let aliases = 0;
        for (const s of SQL) {
          const q = encodeURIComponent(s);
          const tries: Array<[string, Promise<Awaited<ReturnType<typeof call>>>]> = [
            ['key/info', call(url, 'GET', `/key/info?key=${q}`)],
            ['spend key', call(url, 'GET', `/spend/logs?key=${q}`)],
            ['spend user_id', call(url, 'GET', `/spend/logs?user_id=${q}`)],
            ['spend team_id (virtual key)', call(url, 'GET', `/spend/logs?team_id=${q}`, a.headers)],
            ['team/info', call(url, 'GET', `/team/info?team_id=${q}`)],
            [
              'key alias',
              call(url, 'POST', '/key/generate', admin, { key_alias: `probe ${s}`, metadata: { s } }),
            ],
          ];
          for (const [what, pending] of tries) {
            total++;
            const res = await pending;
            if (what === 'key alias' && res.status === 200) aliases++;
            const leaked = Array.isArray(res.json) && res.json.length > 0;
            if (res.status >= 500 || res.ms > 2500 || leaked)
              bad.push(`${what} ${s}: ${res.status}${leaked ? ` ${res.json.length} rows` : ''}`);
          }
        }
        const after = await call(url, 'GET', '/key/list?size=1');
        const intact = after.status === 200 && after.json?.total === before + aliases;
        const aStill = await chat(url, a.headers, 'm');
        return {
          served: total - bad.length + Number(intact) + Number(aStill.status === 200),
          total: total + 2,
          rows: null,
          rowsExpected: null,
          note:
            bad.length === 0
              ? `no 500, no slow answer, no row of another caller; ${aliases} aliases stored as text; tables intact`
              : bad.join('; '),
        };
      },
    },
    {
      id: 'budget race',
      tried: '50 concurrent calls on a key with `max_budget: 0.1` that has spent 0.06 (each call costs 0.03)',
      run: async () => {
        mock.setBehavior('/price/', { usage: { prompt_tokens: 10, completion_tokens: 10 } });
        const k = await newKey(url, { max_budget: 0.1 });
        for (let i = 0; i < 2; i++) await chat(url, k.headers, 'price');
        await rowsOnce(url, k.hash, 2);
        const answers = await Promise.all(Array.from({ length: 50 }, () => chat(url, k.headers, 'price')));
        const ok = answers.filter((a) => a.status === 200).length;
        const refused = answers.filter(
          (a) => a.status === 400 && a.json?.error?.code === 'budget_exceeded',
        ).length;
        const rows = await rowsOnce(url, k.hash, 2 + ok);
        const info = await call(url, 'GET', `/key/info?key=${k.hash}`);
        const spend = Number(info.json?.info?.spend);
        // at most one call past the budget (docs/proxy.md, budgets under concurrency)
        const withinBudget = spend <= 0.1 + 0.03 + 1e-9;
        return {
          served: ok + refused,
          total: 50,
          rows: rows.length,
          rowsExpected: 2 + ok,
          holds: withinBudget && ok <= 2,
          note: `${ok} served, ${refused} refused \`budget_exceeded\`; spend after: $${spend.toFixed(2)} of $0.10`,
        };
      },
    },
    {
      id: 'bad input',
      tried:
        'bodies the API does not take: `[]`, `null`, no model, `messages: "hi"`, `messages: [{}]`, `model: 123`, 11 MB, `text/plain`, nesting 10,000 deep; `max_tokens: -1`, `temperature: "hot"`; then a good call',
      run: async () => {
        let deep = '"x"';
        for (let i = 0; i < 10_000; i++) deep = `[${deep}]`;
        const bodies: unknown[] = [
          '[]',
          'null',
          { messages: USER },
          { model: 'm', messages: 'hi' },
          { model: 'm', messages: [{}] },
          { model: 123, messages: USER },
          `{"model":"m","messages":${deep}}`,
        ];
        const bad: string[] = [];
        for (const body of bodies) {
          const res = await call(url, 'POST', '/v1/chat/completions', admin, body);
          if (res.status < 400 || res.status >= 500 || typeof res.json?.error?.message !== 'string')
            bad.push(`${JSON.stringify(body).slice(0, 40)}: ${res.status}`);
        }
        // 11 MB, written in pieces by a client that reads while it writes (as curl does)
        const tooLarge = await postLarge(url, 11 * 1024 * 1024);
        if (!tooLarge.startsWith('HTTP/1.1 413'))
          bad.push(`11 MB: ${tooLarge.slice(0, 12) || 'connection closed'}`);
        // standard fields of the wrong type or out of range: 400 naming the field, never forwarded
        for (const extra of [{ max_tokens: -1 }, { temperature: 'hot' }]) {
          const res = await chat(url, admin, 'm', extra);
          const field = Object.keys(extra)[0];
          if (res.status !== 400 || !String(res.json?.error?.message).includes(`request.${field}:`))
            bad.push(`${JSON.stringify(extra)}: ${res.status}`);
        }
        const plain = await call(
          url,
          'POST',
          '/v1/chat/completions',
          { ...admin, 'content-type': 'text/plain' },
          'hi',
        );
        if (plain.status < 400 || plain.status >= 500) bad.push(`text/plain: ${plain.status}`);
        const good = await chat(url, admin, 'm');
        if (good.status !== 200) bad.push(`the good call after: ${good.status}`);
        return {
          served: bodies.length + 5 - bad.length,
          total: bodies.length + 5,
          rows: null,
          rowsExpected: null,
          note:
            bad.length === 0
              ? 'each a 4xx with a message (413 for 11 MB; 400 naming the field for the sampling values); the next call served'
              : bad.join('; '),
        };
      },
    },
    {
      id: 'slowloris',
      tried:
        '200 connections sending their headers a byte every 200 ms for 5 s, while 20 ordinary calls are made',
      run: async () => {
        const k = await newKey(url);
        const sockets = await slowClients(url, 200);
        const start = performance.now();
        const answers: Array<Awaited<ReturnType<typeof chat>>> = [];
        while (performance.now() - start < 5000 && answers.length < 20) {
          answers.push(await chat(url, k.headers, 'm'));
          await new Promise((r) => setTimeout(r, 200));
        }
        const alive = sockets.filter((s) => !s.destroyed).length;
        for (const s of sockets) s.destroy();
        const ok = answers.filter((a) => a.status === 200 && a.ms < 2000).length;
        const rows = await rowsOnce(url, k.hash, answers.length);
        return {
          served: ok,
          total: answers.length,
          rows: rows.length,
          rowsExpected: answers.length,
          note: `slowest ordinary call ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; slow connections still open after 5 s: ${alive}/200`,
        };
      },
    },
  ];
}

/** A chat body of about `bytes`, written 64 kB at a time until the gateway answers; its answer. */
function postLarge(url: string, bytes: number): Promise<string> {
  const { hostname, port } = new URL(url);
  const body = Buffer.from(
    JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(bytes) }] }),
  );
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: ${admin.authorization}\r\n` +
          `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
      );
      let offset = 0;
      const more = () => {
        while (offset < body.length && received === '' && !socket.destroyed) {
          const piece = body.subarray(offset, offset + 65_536);
          offset += piece.length;
          if (!socket.write(piece)) return socket.once('drain', more);
        }
      };
      more();
    });
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      received += d;
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      seen.push(received);
      resolve(received);
    });
  });
}

/** `n` sockets that send a request's headers one byte at a time, every 200 ms, until destroyed. */
async function slowClients(url: string, n: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nx-slow: ${'a'.repeat(200)}`;
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), hostname, () => {
            let i = 0;
            const timer = setInterval(() => {
              if (socket.destroyed || i >= head.length) return clearInterval(timer);
              socket.write(head[i++]!);
            }, 200);
            socket.on('close', () => clearInterval(timer));
            resolve(socket);
          });
          socket.on('error', () => undefined);
        }),
    ),
  );
}
