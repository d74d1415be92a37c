import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';
import { type CutProxy, startCutProxy } from './tcp-cut-proxy.js';

const PASSWORD = 'hunter22-db-secret';

// docs/proxy.md: "the database is not answering | 503 | database_unavailable". The proxy talks to the
// real Postgres through a TCP proxy the test cuts. (The embedded engine's counterpart, a worker that
// dies, is in proxy/test/db/database-unavailable.test.ts.)
describe('requests that need the database while Postgres is cut off', () => {
  let cut: CutProxy;
  let t: TestProxy;
  beforeAll(async () => {
    cut = await startCutProxy({ host: '127.0.0.1', port: 5432 });
    // trust auth ignores the password: it is here to be looked for in the answers
    t = await startTestProxy('postgres', {
      general_settings: { database_url: `postgres://postgres:${PASSWORD}@127.0.0.1:${cut.port}/test` },
    });
  });
  afterAll(async () => {
    cut.restore();
    await t.close();
    await cut.close();
  });
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);
  const unavailable = (answer: { status: number; body: { error: Record<string, string> } }) => {
    expect(answer.status).toBe(503);
    expect(answer.body.error).toEqual({
      type: 'service_unavailable',
      code: 'database_unavailable',
      message: 'The database is not answering; try again shortly.',
    });
    expect(JSON.stringify(answer.body)).not.toMatch(new RegExp(`${PASSWORD}|postgres://|${cut.port}`));
  };

  it('a call with a key not in the cache gets 503 database_unavailable, and 200 once the database is back', async () => {
    const { headers } = await newKey();
    cut.cut();
    try {
      unavailable(await chat(headers));
    } finally {
      cut.restore();
    }
    expect((await chat(headers)).status).toBe(200);
  });

  it('GET /key/list gets 503 database_unavailable', async () => {
    cut.cut();
    try {
      unavailable(await get('/key/list'));
    } finally {
      cut.restore();
    }
  });

  it('a write (POST /team/new) gets 503 database_unavailable', async () => {
    cut.cut();
    try {
      unavailable(await post('/team/new', { team_alias: 'while-down' }));
    } finally {
      cut.restore();
    }
  });
});
