// The custom-server example (examples/jwt-server.ts) run as a user runs it (tsx, settings from the
// environment), called over a real socket with tokens of a real identity provider.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';

let idp: TestIdp;
let server: ChildProcess;
let url: string;

beforeAll(async () => {
  idp = await startIdp();
  const script = fileURLToPath(new URL('../../examples/jwt-server.ts', import.meta.url));
  server = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, JWT_PUBLIC_KEY_URL: idp.discoveryUrl, PORT: '0' },
  });
  let out = '';
  for await (const chunk of server.stdout!) {
    out += String(chunk);
    const m = /listening on (\S+)\n/.exec(out);
    if (m) {
      url = m[1]!;
      break;
    }
  }
});
afterAll(async () => {
  server?.kill();
  await idp.close();
});

const call = (token: string | undefined, model: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ model, messages: [] }),
  });

test('an authenticated request is handled with its identity: the first of its teams with the model', async () => {
  const res = await call(await idp.sign({ sub: 'alice', groups: ['support', 'search'] }), 'gpt-4o');
  expect([res.status, await res.json()]).toEqual([
    200,
    {
      kind: 'team',
      team_id: 'search',
      user_id: 'alice',
      model: 'gpt-4o',
      allowed_models: ['gpt-4o', 'gpt-4o-mini'],
    },
  ]);
});

test('a request without a token gets 401 and the safe error body', async () => {
  const res = await call(undefined, 'gpt-4o');
  expect([res.status, await res.json()]).toEqual([
    401,
    { error: { message: 'No bearer token was sent', type: 'authentication_error', code: 'missing_token' } },
  ]);
});

test('a route outside the allowed groups gets 403', async () => {
  const token = await idp.sign({ sub: 'alice', groups: ['search'] });
  const res = await fetch(`${url}/key/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: '{}',
  });
  expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
    403,
    'route_not_allowed',
  ]);
});
