import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maskCredentials } from '../../src/callbacks/mask-key.js';
import { Router } from '../../src/index.js';

const PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

const modelList = [
  {
    model_name: 'gpt',
    svc_params: {
      model: 'openai/gpt-4o',
      api_key: 'sk-live-abcdefgh12345678wxyz',
      extra_headers: { Authorization: 'Bearer sk-header-token-9876', 'x-team': 'search' },
    },
  },
  {
    model_name: 'azure',
    svc_params: {
      model: 'azure/gpt-4o',
      api_base: 'https://r.openai.azure.com',
      tenant_id: 'tenant-1',
      client_id: 'client-1',
      client_secret: 'Zx8Q~client-secret-value-5678',
      azure_ad_token: 'eyJhbGciOi.ad-token.sig-4321',
    },
  },
  {
    model_name: 'vertex',
    svc_params: {
      model: 'vertex_ai/gemini-2.5-flash',
      vertex_project: 'p',
      vertex_credentials: { type: 'service_account', client_email: 'a@p.iam', private_key: PRIVATE_KEY },
    },
  },
  {
    model_name: 'bedrock',
    svc_params: {
      model: 'bedrock/amazon.nova-lite-v1:0',
      aws_region_name: 'us-east-1',
      aws_access_key_id: 'AKIAEXAMPLE',
      aws_secret_access_key: 'aws-secret-access-key-value-abcd',
      aws_session_token: 'os.environ/AWS_SESSION_TOKEN',
    },
  },
];

describe('util.inspect of router.modelList', () => {
  const router = new Router(modelList, {}, { env: { AWS_SESSION_TOKEN: 'session-token-value' } });

  it('masks every credential as ****abcd and keeps the rest', () => {
    const text = inspect(router.modelList, { depth: 8 });
    for (const secret of [
      'sk-live-abcdefgh12345678wxyz',
      'sk-header-token-9876',
      'Zx8Q~client-secret-value-5678',
      'eyJhbGciOi.ad-token.sig-4321',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
      'aws-secret-access-key-value-abcd',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain("api_key: '****wxyz'");
    expect(text).toContain("client_secret: '****5678'");
    expect(text).toContain("azure_ad_token: '****4321'");
    expect(text).toContain("aws_secret_access_key: '****abcd'");
    expect(text).toContain("Authorization: '****9876'");
    expect(text).toContain("aws_session_token: 'os.environ/AWS_SESSION_TOKEN'");
    expect(text).toContain("client_email: 'a@p.iam'");
    expect(text).toContain("'x-team': 'search'");
    expect(text).toContain("model: 'openai/gpt-4o'");
  });

  it('masks an entry’s svc_params inspected on their own', () => {
    expect(inspect(router.modelList[0]?.svc_params)).toContain("api_key: '****wxyz'");
  });

  it('leaves JSON.stringify of an entry as the user wrote it', () => {
    const [entry] = router.modelList;
    expect(JSON.parse(JSON.stringify(entry))).toEqual({
      ...modelList[0],
      model_info: { id: entry?.model_info.id },
    });
    expect(entry?.svc_params.api_key).toBe('sk-live-abcdefgh12345678wxyz');
  });

  it('maskCredentials masks keys of 8 characters or fewer as ****', () => {
    expect(
      maskCredentials({ api_key: 'short', private_key_id: 'kid-1', nested: [{ token: 'abcdefghijk' }] }),
    ).toEqual({
      api_key: '****',
      private_key_id: 'kid-1',
      nested: [{ token: '****hijk' }],
    });
  });
});
