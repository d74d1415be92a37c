import { createHash } from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/index.js';
import { bedrockAdapter } from '../../src/providers/bedrock/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import type { MockRequest } from '../../src/testing/index.js';
import { bedrockTarget, CLAUDE, KEYS } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const request = { model: 'group', messages: [{ role: 'user' as const, content: 'hi' }] };
const chat = (target: ProviderTarget) =>
  invokeJson(http, bedrockAdapter, bedrockAdapter.chat, request, target, options);
const build = async (target: ProviderTarget) => bedrockAdapter.chat.build(request, target, options);
const header = (r: MockRequest | undefined, name: string) => r?.headers[name] as string | undefined;

const AWS_ENV = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_BEARER_TOKEN_BEDROCK',
] as const;
let savedEnv: Record<string, string | undefined> = {};

beforeEach(() => {
  savedEnv = Object.fromEntries(AWS_ENV.map((k) => [k, process.env[k]]));
  for (const key of AWS_ENV) delete process.env[key];
});
afterEach(() => {
  for (const key of AWS_ENV) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});
afterAll(async () => {
  await http.close();
});

/** Re-signs a recorded request with the given keys at its own `x-amz-date`, as AWS would to verify it. */
async function resign(
  recorded: MockRequest,
  keys: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
) {
  const authorization = header(recorded, 'authorization') ?? '';
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(signedNames.map((name) => [name, header(recorded, name) ?? '']));
  const [host, port] = (header(recorded, 'host') ?? '').split(':');
  const date = (header(recorded, 'x-amz-date') ?? '').replace(
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
    '$1-$2-$3T$4:$5:$6Z',
  );
  const signer = new SignatureV4({
    service: 'bedrock',
    region: KEYS.aws_region_name,
    credentials: keys,
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    new HttpRequest({
      method: recorded.method,
      protocol: 'http:',
      hostname: host ?? '',
      port: port ? Number(port) : undefined,
      path: recorded.path,
      headers,
      body: JSON.stringify(recorded.body),
    }),
    { signingDate: new Date(date) },
  );
  return signed.headers.authorization;
}

describe('Bedrock SigV4 signing', () => {
  it('signs with AWS4-HMAC-SHA256 for the region and service bedrock', async () => {
    await chat(bedrockTarget(`${mock.url}/s`));
    const recorded = mock.requests[0];
    const date = header(recorded, 'x-amz-date') ?? '';
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    expect(header(recorded, 'authorization')).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/${date.slice(0, 8)}/us-west-2/bedrock/aws4_request, ` +
          'SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$',
      ),
    );
    expect(header(recorded, 'host')).toBe(new URL(mock.url).host);
  });

  it('sends the SHA-256 of exactly the body it sent', async () => {
    await chat(bedrockTarget(`${mock.url}/s`));
    const recorded = mock.requests[0];
    const sent = JSON.stringify(recorded?.body);
    expect(header(recorded, 'x-amz-content-sha256')).toBe(createHash('sha256').update(sent).digest('hex'));
  });

  it('makes a signature that verifies when the recorded request is re-signed at its x-amz-date', async () => {
    await chat(bedrockTarget(`${mock.url}/s`));
    const recorded = mock.requests[0] as MockRequest;
    const keys = { accessKeyId: KEYS.aws_access_key_id, secretAccessKey: KEYS.aws_secret_access_key };
    expect(await resign(recorded, keys)).toBe(header(recorded, 'authorization'));
    // the signature covers the body through x-amz-content-sha256, which must hash the bytes received
    const received = JSON.stringify(recorded.body);
    expect(header(recorded, 'x-amz-content-sha256')).toBe(
      createHash('sha256').update(received).digest('hex'),
    );
    // and the check is real: another path or another secret does not verify
    const tampered = { ...recorded, path: recorded.path.replace('converse', 'converse-stream') };
    expect(await resign(tampered, keys)).not.toBe(header(recorded, 'authorization'));
    expect(await resign(recorded, { ...keys, secretAccessKey: 'other' })).not.toBe(
      header(recorded, 'authorization'),
    );
  });

  it('sends and signs x-amz-security-token when a session token is set', async () => {
    await chat(bedrockTarget(`${mock.url}/s`, CLAUDE, { aws_session_token: 'session-token-123' }));
    const recorded = mock.requests[0] as MockRequest;
    expect(header(recorded, 'x-amz-security-token')).toBe('session-token-123');
    expect(header(recorded, 'authorization')).toContain('x-amz-security-token');
    const keys = {
      accessKeyId: KEYS.aws_access_key_id,
      secretAccessKey: KEYS.aws_secret_access_key,
      sessionToken: 'session-token-123',
    };
    expect(await resign(recorded, keys)).toBe(header(recorded, 'authorization'));
  });

  it('reads credentials and region from the AWS_* environment when svc_params has none', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAENVEXAMPLE000001';
    process.env.AWS_SECRET_ACCESS_KEY = 'env-secret';
    process.env.AWS_SESSION_TOKEN = 'env-session';
    process.env.AWS_DEFAULT_REGION = 'eu-central-1';
    const target = bedrockTarget(`${mock.url}/s`, CLAUDE, {
      aws_access_key_id: undefined,
      aws_secret_access_key: undefined,
      aws_region_name: undefined,
    });
    await chat(target);
    const recorded = mock.requests[0];
    expect(header(recorded, 'authorization')).toContain('Credential=AKIAENVEXAMPLE000001/');
    expect(header(recorded, 'authorization')).toContain('/eu-central-1/bedrock/aws4_request');
    expect(header(recorded, 'x-amz-security-token')).toBe('env-session');
  });

  it('prefers AWS_REGION to AWS_DEFAULT_REGION', async () => {
    process.env.AWS_REGION = 'ap-southeast-2';
    process.env.AWS_DEFAULT_REGION = 'eu-central-1';
    await chat(bedrockTarget(`${mock.url}/s`, CLAUDE, { aws_region_name: undefined }));
    expect(header(mock.requests[0], 'authorization')).toContain('/ap-southeast-2/bedrock/');
  });

  it('reads the environment once per deployment, not per call', async () => {
    process.env.AWS_REGION = 'us-east-2';
    const target = bedrockTarget(`${mock.url}/s`, CLAUDE, { aws_region_name: undefined });
    await chat(target);
    process.env.AWS_REGION = 'eu-west-1';
    await chat(target);
    expect(header(mock.requests[1], 'authorization')).toContain('/us-east-2/bedrock/');
  });

  it('fails with an AuthenticationError naming aws_region_name when there is no region', async () => {
    const error = await build(bedrockTarget(`${mock.url}/s`, CLAUDE, { aws_region_name: undefined })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('aws_region_name');
  });

  it('fails with an AuthenticationError when there are no credentials at all', async () => {
    const target = bedrockTarget(`${mock.url}/s`, CLAUDE, {
      aws_access_key_id: undefined,
      aws_secret_access_key: undefined,
    });
    await expect(build(target)).rejects.toThrow(AuthenticationError);
    expect(mock.requests).toHaveLength(0);
  });

  it('never sends the secret access key', async () => {
    await chat(bedrockTarget(`${mock.url}/s`));
    const sent = JSON.stringify(mock.requests[0]);
    expect(sent).not.toContain(KEYS.aws_secret_access_key);
  });
});

describe('Bedrock API keys and endpoints', () => {
  it('sends svc_params api_key as Authorization: Bearer instead of signing', async () => {
    await chat(bedrockTarget(`${mock.url}/s`, CLAUDE, { api_key: 'bedrock-api-key-1' }, 'bedrock-api-key-1'));
    const recorded = mock.requests[0];
    expect(header(recorded, 'authorization')).toBe('Bearer bedrock-api-key-1');
    expect(header(recorded, 'x-amz-date')).toBeUndefined();
  });

  it('uses AWS_BEARER_TOKEN_BEDROCK when svc_params sets no IAM keys', async () => {
    const target = bedrockTarget(
      `${mock.url}/s`,
      CLAUDE,
      { aws_access_key_id: undefined, aws_secret_access_key: undefined },
      'env-bearer-token',
    );
    await chat(target);
    expect(header(mock.requests[0], 'authorization')).toBe('Bearer env-bearer-token');
  });

  it('prefers IAM keys in svc_params to AWS_BEARER_TOKEN_BEDROCK from the environment', async () => {
    await chat(bedrockTarget(`${mock.url}/s`, CLAUDE, {}, 'env-bearer-token'));
    expect(header(mock.requests[0], 'authorization')).toMatch(/^AWS4-HMAC-SHA256 /);
  });

  it('calls the regional endpoint when no api_base is set', async () => {
    const wire = await build(bedrockTarget(undefined));
    expect(wire.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse',
    );
    expect(wire.headers.host).toBe('bedrock-runtime.us-west-2.amazonaws.com');
  });

  it('URL-encodes an inference profile ARN as one path segment', async () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3';
    const wire = await build(bedrockTarget('https://vpce.example.com', arn));
    expect(wire.url).toBe(
      'https://vpce.example.com/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fa1b2c3/converse',
    );
  });
});
