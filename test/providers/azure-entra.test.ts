import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError, Router } from '../../src/index.js';
import { azureAdapter, azureHeaders, EntraTokenCache } from '../../src/providers/azure/index.js';
import { createProviderRuntime } from '../../src/providers/shared/provider-runtime.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, fixture, OPTIONS, targetOn, USER } from './openai-family-helpers.js';

const SECRET = 'client-secret-value-abc123';
const TOKEN = (JSON.parse(fixture('azure', 'entra-token.json')) as { access_token: string }).access_token;

interface TokenRequest {
  path: string;
  form: URLSearchParams;
  contentType: string | undefined;
}

const mock = useMock();
let tokenServer: Server;
let authority: string;
let tokenRequests: TokenRequest[] = [];
let tokenAnswer: { status: number; body: string } = {
  status: 200,
  body: fixture('azure', 'entra-token.json'),
};

beforeAll(async () => {
  tokenServer = createServer((req, res) => {
    let text = '';
    req.on('data', (part: Buffer) => {
      text += part.toString('utf8');
    });
    req.on('end', () => {
      tokenRequests.push({
        path: req.url ?? '',
        form: new URLSearchParams(text),
        contentType: req.headers['content-type'],
      });
      res.writeHead(tokenAnswer.status, { 'content-type': 'application/json' });
      res.end(tokenAnswer.body);
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  authority = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
});
beforeEach(() => {
  tokenRequests = [];
  tokenAnswer = { status: 200, body: fixture('azure', 'entra-token.json') };
});
afterAll(async () => {
  await closeHttp();
  await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
});

const credentials = (tenant: string) => ({
  api_key: undefined,
  api_version: '2024-10-21',
  tenant_id: tenant,
  client_id: 'app-client-id',
  client_secret: SECRET,
  azure_authority_host: authority,
});
const target = (tenant: string) => ({
  ...targetOn(mock, azureAdapter, 'dep', '/entra', credentials(tenant)),
  apiKey: undefined,
});

describe('Azure Entra ID client credentials', () => {
  it('fetches a token from {authority}/{tenant}/oauth2/v2.0/token and sends it as Bearer', async () => {
    await chat(azureAdapter, target('tenant-a'));
    expect(tokenRequests).toHaveLength(1);
    const [request] = tokenRequests;
    expect(request?.path).toBe('/tenant-a/oauth2/v2.0/token');
    expect(request?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request!.form)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app-client-id',
      client_secret: SECRET,
      scope: 'https://cognitiveservices.azure.com/.default',
    });
    expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(mock.requests[0]?.headers['api-key']).toBeUndefined();
  });

  it('caches the token across calls, concurrent ones included', async () => {
    const t = target('tenant-b');
    await Promise.all([chat(azureAdapter, t), chat(azureAdapter, t)]);
    await chat(azureAdapter, t);
    expect(tokenRequests).toHaveLength(1);
    expect(mock.requests).toHaveLength(3);
    expect(new Set(mock.requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
  });

  it('shares one token between the deployments of a runtime (same tenant, client and scope), not across runtimes', async () => {
    const runtime = createProviderRuntime();
    await chat(azureAdapter, target('tenant-g'), {}, { ...OPTIONS, runtime });
    await chat(azureAdapter, target('tenant-g'), {}, { ...OPTIONS, runtime });
    expect(tokenRequests).toHaveLength(1);
    await chat(azureAdapter, target('tenant-g'), {}, { ...OPTIONS, runtime: createProviderRuntime() });
    expect(tokenRequests).toHaveLength(2);
  });

  it('drops its cached token when the runtime closes', async () => {
    const runtime = createProviderRuntime();
    await chat(azureAdapter, target('tenant-h'), {}, { ...OPTIONS, runtime });
    runtime.close();
    await chat(azureAdapter, target('tenant-h'), {}, { ...OPTIONS, runtime });
    expect(tokenRequests).toHaveLength(2);
  });

  it('fetches a new token shortly before the cached one expires', async () => {
    let now = 1_000_000;
    const cache = new EntraTokenCache(() => now);
    await azureHeaders(target('tenant-c'), OPTIONS, cache);
    now += 3599_000 - 6 * 60_000; // more than five minutes left: still cached
    await azureHeaders(target('tenant-c'), OPTIONS, cache);
    expect(tokenRequests).toHaveLength(1);
    now += 2 * 60_000; // within five minutes of expiry
    await azureHeaders(target('tenant-c'), OPTIONS, cache);
    expect(tokenRequests).toHaveLength(2);
  });

  it('turns a refused secret into an AuthenticationError with Entra’s reason and without the secret', async () => {
    tokenAnswer = { status: 401, body: fixture('azure', 'entra-error-invalid-client.json') };
    const error = await chat(azureAdapter, target('tenant-d')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('AADSTS7000215');
    expect((error as Error).message).not.toContain(SECRET);
    expect(mock.requests).toHaveLength(0);
  });

  it('does not cache a failed token request', async () => {
    tokenAnswer = { status: 400, body: fixture('azure', 'entra-error-invalid-client.json') };
    await expect(chat(azureAdapter, target('tenant-e'))).rejects.toBeInstanceOf(AuthenticationError);
    tokenAnswer = { status: 200, body: fixture('azure', 'entra-token.json') };
    await chat(azureAdapter, target('tenant-e'));
    expect(tokenRequests).toHaveLength(2);
  });

  it('works through the Router from svc_params', async () => {
    const r = new Router([
      {
        model_name: 'gpt',
        svc_params: {
          model: 'azure/dep',
          api_base: `${mock.url}/entra`,
          ...credentials('tenant-f'),
          api_key: undefined,
        },
      },
    ]);
    const res = await r.acompletion({ model: 'gpt', messages: USER });
    await r.close();
    expect(res.choices[0]?.message.content).toBeTruthy();
    expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
