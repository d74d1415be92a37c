import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import type { MockProvider } from '../../src/testing/index.js';

/** A Vertex target on the mock under `/<prefix>`, with project and location. */
export function vertexTarget(
  mock: MockProvider,
  model = 'gemini-2.5-flash',
  params: Record<string, unknown> = {},
  /** null: no api_key, so auth goes through google-auth-library. */
  apiKey: string | null = 'ya29.vertex-static-token',
  prefix = 'vx',
): ProviderTarget {
  return {
    provider: 'vertex_ai',
    model,
    modelId: 'dep-vertex',
    env: process.env,
    secrets: [],
    apiBase: `${mock.url}/${prefix}`,
    apiKey: apiKey ?? undefined,
    apiVersion: undefined,
    params: {
      model: `vertex_ai/${model}`,
      vertex_project: 'my-project',
      vertex_location: 'europe-west4',
      ...params,
    },
  };
}

/** A local OAuth2 token endpoint that records the grants it receives. */
export interface TokenServer {
  url: string;
  grants: URLSearchParams[];
  close(): Promise<void>;
}

/** Starts a token endpoint answering every POST with `access_token` (or, with `refuse`, `invalid_grant`). */
export async function startTokenServer(accessToken: string, refuse = false): Promise<TokenServer> {
  const grants: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => {
      body += part.toString('utf8');
    });
    req.on('end', () => {
      grants.push(new URLSearchParams(body));
      res.writeHead(refuse ? 400 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          refuse
            ? { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }
            : { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    grants,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A service-account key file (freshly generated key) whose `token_uri` is the given endpoint. */
export function serviceAccount(tokenUri: string, email = 'router-test@my-project.iam.gserviceaccount.com') {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return {
    type: 'service_account',
    project_id: 'my-project',
    private_key_id: 'test-key-id',
    private_key: privateKey,
    client_email: email,
    client_id: '1234567890',
    token_uri: tokenUri,
  };
}

/** The claims of a JWT (no verification: the test only reads what was asked for). */
export function jwtClaims(jwt: string | null): Record<string, unknown> {
  const payload = jwt?.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
