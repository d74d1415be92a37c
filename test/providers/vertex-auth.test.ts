import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/index.js';
import { vertexAdapter } from '../../src/providers/vertex_ai/index.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp } from './gemini-helpers.js';
import {
  jwtClaims,
  serviceAccount,
  startTokenServer,
  type TokenServer,
  vertexTarget,
} from './vertex-helpers.js';

const mock = useMock();
let tokens: TokenServer;
const dir = mkdtempSync(join(tmpdir(), 'vertex-auth-'));
beforeAll(async () => {
  tokens = await startTokenServer('ya29.from-local-token-endpoint');
});
beforeEach(() => {
  tokens.grants.length = 0;
});
afterAll(async () => {
  await closeHttp();
  await tokens.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Vertex AI auth through google-auth-library', () => {
  it('exchanges vertex_credentials (service-account JSON) for a token at its token_uri and sends it as Bearer', async () => {
    const key = serviceAccount(`${tokens.url}/token`, 'json-object@my-project.iam.gserviceaccount.com');
    await chat(vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: key }, null), {}, vertexAdapter);
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ya29.from-local-token-endpoint');
    expect(tokens.grants).toHaveLength(1);
    expect(tokens.grants[0]?.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(jwtClaims(tokens.grants[0]?.get('assertion') ?? null)).toMatchObject({
      iss: 'json-object@my-project.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
  });

  it('reuses the cached token for later calls', async () => {
    const key = serviceAccount(`${tokens.url}/token`, 'cached@my-project.iam.gserviceaccount.com');
    const target = vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: key }, null);
    await chat(target, {}, vertexAdapter);
    await chat(target, {}, vertexAdapter);
    expect(mock.requests).toHaveLength(2);
    expect(tokens.grants).toHaveLength(1);
  });

  it('accepts vertex_credentials as JSON text and as a key file path', async () => {
    const text = JSON.stringify(
      serviceAccount(`${tokens.url}/token`, 'as-text@my-project.iam.gserviceaccount.com'),
    );
    const path = join(dir, 'key.json');
    writeFileSync(
      path,
      JSON.stringify(serviceAccount(`${tokens.url}/token`, 'as-file@my-project.iam.gserviceaccount.com')),
    );
    await chat(vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: text }, null), {}, vertexAdapter);
    await chat(vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: path }, null), {}, vertexAdapter);
    expect(tokens.grants.map((g) => jwtClaims(g.get('assertion')).iss)).toEqual([
      'as-text@my-project.iam.gserviceaccount.com',
      'as-file@my-project.iam.gserviceaccount.com',
    ]);
    expect(mock.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer ya29.from-local-token-endpoint',
      'Bearer ya29.from-local-token-endpoint',
    ]);
  });

  it('prefers svc_params api_key as the Bearer token and asks for no token', async () => {
    const key = serviceAccount(`${tokens.url}/token`);
    await chat(
      vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: key }, 'ya29.explicit'),
      {},
      vertexAdapter,
    );
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ya29.explicit');
    expect(tokens.grants).toHaveLength(0);
  });

  it('fails with AuthenticationError, without quoting the key, when vertex_credentials is not JSON', async () => {
    const broken = '{"private_key": "-----BEGIN PRIVATE KEY-----SECRETSECRET", oops';
    const error = await chat(
      vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: broken }, null),
      {},
      vertexAdapter,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).not.toContain('SECRETSECRET');
    expect(mock.requests).toHaveLength(0);
  });

  it('fails with AuthenticationError carrying the reason when the token endpoint refuses the grant', async () => {
    const refusing = await startTokenServer('unused', true);
    const key = serviceAccount(`${refusing.url}/token`, 'refused@my-project.iam.gserviceaccount.com');
    const error = await chat(
      vertexTarget(mock, 'gemini-2.5-flash', { vertex_credentials: key }, null),
      {},
      vertexAdapter,
    ).catch((e: unknown) => e);
    await refusing.close();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('could not get a Google access token');
    expect((error as Error).message).toContain('invalid_grant');
    expect(mock.requests).toHaveLength(0);
  });
});
