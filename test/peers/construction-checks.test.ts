import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConfigError,
  type DeploymentConfig,
  InternalServerError,
  MissingPeerError,
  Router,
} from '../../src/index.js';
import type { Aws4 } from '../../src/peers/aws4.js';
import type { EventStreamCodecModule } from '../../src/peers/eventstream-codec.js';
import { OptionalPeer } from '../../src/peers/optional-peer.js';
import { bedrockAdapter } from '../../src/providers/bedrock/adapter.js';
import { authorizedHeaders, bedrockAuth, bedrockProblems } from '../../src/providers/bedrock/aws-auth.js';
import { bedrockStreamCodec } from '../../src/providers/bedrock/stream-codec.js';
import { vertexAdapter, vertexProblems } from '../../src/providers/vertex_ai/adapter.js';
import { googleAccessToken } from '../../src/providers/vertex_ai/auth.js';
import { requireRedisClient } from '../../src/stores/redis-client.js';
import type { MockProvider } from '../../src/testing/index.js';
import { CLAUDE as BEDROCK_CLAUDE, bedrockTarget } from '../fixtures/bedrock/load.js';
import { vertexTarget } from '../providers/vertex-helpers.js';

// Packages no registry has: each check meets a package that is really not installed.
const noSigner = new OptionalPeer('@svc-test/no-aws4', 'to sign its calls with SigV4 (IAM keys)');
const noGoogleAuth = new OptionalPeer('@svc-test/no-google-auth', 'for Application Default Credentials');
const noRedisClient = new OptionalPeer<typeof import('ioredis')>(
  '@svc-test/no-ioredis',
  'as its Redis client',
);

// The built-in adapters with their construction check pointed at the missing packages.
const bedrockWithoutSigner = { ...bedrockAdapter, validate: (t: never) => bedrockProblems(t, noSigner) };
const vertexWithoutGoogleAuth = { ...vertexAdapter, validate: (t: never) => vertexProblems(t, noGoogleAuth) };

const CLAUDE = 'anthropic.claude-3-haiku-20240307-v1:0';
const bedrock = (params: Record<string, unknown>): DeploymentConfig => ({
  model_name: 'claude',
  svc_params: { model: `bedrock/${CLAUDE}`, aws_region_name: 'us-east-1', ...params },
});
const vertex = (params: Record<string, unknown>): DeploymentConfig => ({
  model_name: 'gemini',
  svc_params: { model: 'vertex_ai/gemini-2.5-flash', vertex_project: 'p-1', ...params },
});
const IAM = { aws_access_key_id: 'AKIDEXAMPLE', aws_secret_access_key: 'secret-example' };

function constructionError(deployment: DeploymentConfig, adapter: object): unknown {
  try {
    new Router([deployment], {}, { providers: [adapter as typeof bedrockAdapter] });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a deployment whose optional package is not installed fails at construction', () => {
  it('bedrock/ with IAM keys names the signing package and the deployment', () => {
    const error = constructionError(bedrock(IAM), bedrockWithoutSigner);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      `model_list[0]: bedrock/ deployment "${CLAUDE}" needs @svc-test/no-aws4 to sign its calls with SigV4 (IAM keys): npm install @svc-test/no-aws4`,
    ]);
  });

  it('bedrock/ with a Bedrock API key needs no package', async () => {
    const router = new Router(
      [bedrock({ api_key: 'bedrock-api-key' })],
      {},
      { providers: [bedrockWithoutSigner] },
    );
    expect(router.modelList).toHaveLength(1);
    await router.close();
  });

  it('vertex_ai/ on Application Default Credentials names google-auth-library and the way around it', () => {
    const error = constructionError(vertex({}), vertexWithoutGoogleAuth);
    expect((error as ConfigError).problems).toEqual([
      'model_list[0]: vertex_ai/ deployment "gemini-2.5-flash" needs @svc-test/no-google-auth for Application Default Credentials (or set `api_key`): npm install @svc-test/no-google-auth',
    ]);
  });

  it('vertex_ai/ with a service-account key says the key needs it', () => {
    const error = constructionError(
      vertex({ vertex_credentials: '{"type":"service_account"}' }),
      vertexWithoutGoogleAuth,
    );
    expect((error as ConfigError).problems[0]).toContain(
      'needs @svc-test/no-google-auth for its service-account key (`vertex_credentials`)',
    );
  });

  it('vertex_ai/ with an explicit api_key needs nothing', async () => {
    const router = new Router(
      [vertex({ api_key: 'ya29.token' })],
      {},
      { providers: [vertexWithoutGoogleAuth] },
    );
    expect(router.modelList).toHaveLength(1);
    await router.close();
  });

  it('a RedisStore names ioredis and where it connects, never the password', () => {
    const error = (() => {
      try {
        requireRedisClient('redis://:****@127.0.0.1:6379', noRedisClient);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as Error).message).toBe(
      'RedisStore (redis://:****@127.0.0.1:6379) needs @svc-test/no-ioredis as its Redis client: npm install @svc-test/no-ioredis',
    );
  });
});

describe('a call that needs a missing package anyway fails with a typed error naming it', () => {
  it('bedrock/ SigV4 signing: an AuthenticationError whose cause is the MissingPeerError', async () => {
    const noSigner = new OptionalPeer<{ default: Aws4 }>(
      '@svc-test/no-aws4',
      'to sign its calls with SigV4 (IAM keys)',
    );
    const target = bedrockTarget('http://127.0.0.1:1');
    const error = await authorizedHeaders(
      bedrockAuth(target),
      'http://127.0.0.1:1/model/x/converse',
      {},
      '{}',
      noSigner,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain(
      `bedrock/ deployment "${BEDROCK_CLAUDE}" needs @svc-test/no-aws4 to sign its calls with SigV4 (IAM keys): npm install @svc-test/no-aws4`,
    );
    expect((error as AuthenticationError).cause).toBeInstanceOf(MissingPeerError);
  });

  it('a bedrock/ stream: an InternalServerError naming the event-stream codec, before anything is sent', async () => {
    const noCodec = new OptionalPeer<EventStreamCodecModule>(
      '@svc-test/no-eventstream-codec',
      'to read its streamed answers (the AWS event stream)',
    );
    const error = await bedrockStreamCodec(bedrockTarget('http://127.0.0.1:1'), noCodec).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).message).toBe(
      `bedrock/ deployment "${BEDROCK_CLAUDE}" needs @svc-test/no-eventstream-codec to read its streamed answers (the AWS event stream): npm install @svc-test/no-eventstream-codec`,
    );
    expect((error as InternalServerError).cause).toBeInstanceOf(MissingPeerError);
  });

  it('vertex_ai/ token: an AuthenticationError naming google-auth-library', async () => {
    const noLibrary = new OptionalPeer<typeof import('google-auth-library')>(
      '@svc-test/no-google-auth',
      'unused',
    );
    const target = vertexTarget({ url: 'http://127.0.0.1:1' } as MockProvider, 'gemini-2.5-flash', {}, null);
    const error = await googleAccessToken(target, { timeoutMs: 1000 }, noLibrary).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain(
      'vertex_ai/ deployment "gemini-2.5-flash" needs @svc-test/no-google-auth for Application Default Credentials (or set `api_key`): npm install @svc-test/no-google-auth',
    );
  });
});

describe('with the packages installed (as in this repository)', () => {
  it('the same deployments construct with the built-in adapters', async () => {
    const router = new Router([bedrock(IAM), vertex({})]);
    expect(router.modelList).toHaveLength(2);
    await router.close();
  });
});
