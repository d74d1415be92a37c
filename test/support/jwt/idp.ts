// A real OpenID provider (oidc-provider) on a loopback port: discovery, JWKS, UserInfo and a token
// endpoint, with request counts per path and injectable faults (delay, status) in front of it.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256' | 'PS256' | 'EdDSA';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface Fault {
  /** Answer with this status (and no body) instead of the provider. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Close the connection without answering. */
  drop?: boolean;
  /** Answer 200 with this JSON text instead of the provider. */
  body?: string;
}

export interface SignOptions {
  alg?: string;
  kid?: string | null;
  typ?: string | null;
  key?: CryptoKey | Uint8Array;
  header?: Record<string, unknown>;
  /** Extensions the signer should accept in `crit` (jose refuses to sign unknown ones otherwise). */
  crit?: Record<string, boolean>;
  /** Seconds from now; null leaves `exp` out. */
  expiresIn?: number | null;
}

export interface TestIdp {
  issuer: string;
  discoveryUrl: string;
  jwksUri: string;
  userinfoEndpoint: string;
  tokenEndpoint: string;
  /** Requests served, by path (`/jwks`, `/.well-known/openid-configuration`, `/me`, `/token`). */
  hits: Record<string, number>;
  /** The last Authorization header received, by path. */
  authorizations: Record<string, string | undefined>;
  keys: SigningKey[];
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** Faults by path; delete an entry to heal. */
  faults: Map<string, Fault>;
  /** Publishes a new RS256 key (the provider restarts behind the same port) and returns it. */
  rotate(): Promise<SigningKey>;
  /** UserInfo claims of an account. */
  setAccount(id: string, claims: Record<string, unknown>): void;
  /** An opaque access token of the provider for an account, accepted at its UserInfo endpoint. */
  opaqueToken(accountId: string, scope?: string): Promise<string>;
  /** A real RFC 9068 access token (`typ: at+jwt`) from the token endpoint (client credentials). */
  clientCredentialsToken(scope: string): Promise<string>;
  close(): Promise<void>;
}

export const CLIENT_ID = 'gateway-client';
const CLIENT_SECRET = 'gateway-client-secret-for-tests';
export const RESOURCE = 'https://gateway.test';

// Pre-generated test keys (RSA generation takes up to a second each); used in turn, then generated.
const FIXTURE_KEYS = JSON.parse(
  readFileSync(new URL('../../jwt/fixtures/test-keys.json', import.meta.url), 'utf8'),
) as Record<string, JWK[]>;
const used: Record<string, number> = {};
const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi']);

export async function newKey(alg: SigningKey['alg'], kid: string): Promise<SigningKey> {
  const fixtures = FIXTURE_KEYS[alg] ?? [];
  const index = used[alg] ?? 0;
  used[alg] = index + 1;
  let jwk = fixtures[index];
  if (!jwk) jwk = await exportJWK((await generateKeyPair(alg, { extractable: true })).privateKey);
  const privateKey = (await importJWK(jwk, alg, { extractable: true })) as CryptoKey;
  const publicMembers = Object.fromEntries(Object.entries(jwk).filter(([k]) => !PRIVATE_MEMBERS.has(k)));
  return { kid, alg, privateKey, publicJwk: { ...publicMembers, kid, alg, use: 'sig' } };
}

async function privateJwk(key: SigningKey): Promise<JWK> {
  return { ...(await exportJWK(key.privateKey)), kid: key.kid, alg: key.alg, use: 'sig' };
}

type Stored = Record<string, unknown> & {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: number;
};

/** oidc-provider's storage, in a Map (one per test provider; kept across restarts for rotation). */
function memoryAdapter(store: Map<string, Stored>) {
  return class {
    constructor(private readonly name: string) {}
    private key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: Stored) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUserCode(userCode: string) {
      return [...store.values()].find((p) => p.userCode === userCode);
    }
    async findByUid(uid: string) {
      return [...store.values()].find((p) => p.uid === uid);
    }
    async consume(id: string) {
      const p = store.get(this.key(id));
      if (p) p.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, p] of store) if (p.grantId === grantId) store.delete(k);
    }
  };
}

const TTL = {
  AccessToken: 600,
  ClientCredentials: 600,
  Grant: 600,
  IdToken: 600,
  Interaction: 600,
  Session: 600,
};

export async function startIdp(options: { keys?: SigningKey[] } = {}): Promise<TestIdp> {
  const keys = options.keys ?? [await newKey('RS256', 'rsa-1'), await newKey('ES256', 'ec-1')];
  const accounts = new Map<string, Record<string, unknown>>();
  const hits: Record<string, number> = {};
  const authorizations: Record<string, string | undefined> = {};
  const faults = new Map<string, Fault>();
  const storage = new Map<string, Stored>();
  let provider: Provider | undefined;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits[path] = (hits[path] ?? 0) + 1;
    authorizations[path] = req.headers.authorization;
    const fault = faults.get(path);
    const answer = () => {
      if (fault?.drop) return req.socket.destroy();
      if (fault?.body !== undefined)
        return res.writeHead(200, { 'content-type': 'application/json' }).end(fault.body);
      if (fault?.status) return res.writeHead(fault.status).end();
      handler!(req, res);
    };
    if (fault?.delayMs) setTimeout(answer, fault.delayMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = async () => {
    provider = new Provider(issuer, {
      adapter: memoryAdapter(storage),
      jwks: { keys: await Promise.all(keys.map(privateJwk)) },
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      scopes: ['openid', 'email', 'profile', 'svc_proxy_admin', 'models.read'],
      claims: { openid: ['sub'], email: ['email'], profile: ['name', 'roles', 'groups', 'team'] },
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...accounts.get(id) }),
      }),
      ttl: TTL,
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => RESOURCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'svc_proxy_admin models.read',
            audience: RESOURCE,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
    });
    handler = provider.callback();
  };
  await build();

  const now = () => Math.floor(Date.now() / 1000);
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    jwksUri: `${issuer}/jwks`,
    userinfoEndpoint: `${issuer}/me`,
    tokenEndpoint: `${issuer}/token`,
    hits,
    authorizations,
    keys,
    faults,
    async sign(claims, o = {}) {
      const signer = o.key === undefined ? keys[0]! : undefined;
      const alg = o.alg ?? signer?.alg ?? 'RS256';
      const header: Record<string, unknown> = { alg, ...o.header };
      const kid = o.kid === undefined ? signer?.kid : o.kid;
      if (kid !== null && kid !== undefined) header.kid = kid;
      if (o.typ !== null) header.typ = o.typ ?? 'JWT';
      const body: Record<string, unknown> = { iss: issuer, iat: now(), ...claims };
      if (o.expiresIn !== null && !('exp' in claims)) body.exp = now() + (o.expiresIn ?? 600);
      return new SignJWT(body)
        .setProtectedHeader(header as { alg: string })
        .sign((o.key ?? signer!.privateKey) as CryptoKey, o.crit ? { crit: o.crit } : undefined);
    },
    async rotate() {
      const key = await newKey('RS256', `rsa-${keys.length + 1}`);
      keys.push(key);
      await build();
      return key;
    },
    setAccount(id, claims) {
      accounts.set(id, claims);
    },
    async opaqueToken(accountId, scope = 'openid email profile') {
      const client = await provider!.Client.find(CLIENT_ID);
      const grant = new provider!.Grant({ accountId, clientId: CLIENT_ID });
      grant.addOIDCScope(scope);
      const grantId = await grant.save();
      return new provider!.AccessToken({ accountId, client: client!, scope, grantId }).save();
    },
    async clientCredentialsToken(scope) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          scope,
        }),
      });
      const json = (await res.json()) as { access_token?: string };
      if (!json.access_token) throw new Error(`token endpoint answered ${res.status}`);
      return json.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
