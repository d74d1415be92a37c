import { describe, expect, it } from 'vitest';
import { ConfigError, Router } from '../../src/index.js';

const construct =
  (svc_params: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  () =>
    new Router([{ model_name: 'm', svc_params: svc_params as { model: string } }], {}, { env });

describe('provider settings are checked at construction, not at the first request', () => {
  it('requires api_base for azure/', () => {
    expect(construct({ model: 'azure/my-deployment', api_key: 'k' })).toThrow(ConfigError);
    expect(construct({ model: 'azure/my-deployment', api_key: 'k' })).toThrow(/model_list\[0\]: .*api_base/);
  });

  it('requires a project for vertex_ai/', () => {
    expect(construct({ model: 'vertex_ai/gemini-2.5-pro', api_key: 'k' })).toThrow(
      /model_list\[0\]: .*vertex_project/,
    );
  });

  it('takes the Vertex project from the router’s environment', () => {
    expect(
      construct({ model: 'vertex_ai/gemini-2.5-pro', api_key: 'k' }, { VERTEXAI_PROJECT: 'p' }),
    ).not.toThrow();
  });

  it('requires an AWS region for bedrock/', () => {
    expect(
      construct({
        model: 'bedrock/anthropic.claude-3-haiku',
        aws_access_key_id: 'AKIAEXAMPLE',
        aws_secret_access_key: 's',
      }),
    ).toThrow(/model_list\[0\]: .*aws_region_name/);
  });

  it('reads AWS credentials and region from the router’s environment', () => {
    expect(
      construct(
        { model: 'bedrock/anthropic.claude-3-haiku' },
        { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'us-east-1' },
      ),
    ).not.toThrow();
  });

  it('never prints a secret in a construction error', () => {
    try {
      construct({
        model: 'bedrock/x',
        aws_access_key_id: 'AKIAEXAMPLE',
        aws_secret_access_key: 'very-secret-value',
      })();
    } catch (error) {
      expect((error as Error).message).not.toContain('very-secret-value');
      return;
    }
    throw new Error('expected a ConfigError');
  });
});

describe('credentials that never reach a message', () => {
  it('collects AWS keys from the environment, credentials JSON text and AD tokens as secrets', async () => {
    const { buildTarget } = await import('../../src/providers/build-target.js');
    const { adapterFor } = await import('../../src/providers/registry.js');
    const { buildDeployments } = await import('../../src/config/build-deployments.js');
    const env = {
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-from-env',
      AWS_REGION: 'us-east-1',
    };
    const [bedrock, vertex, azure] = buildDeployments(
      [
        { model_name: 'b', svc_params: { model: 'bedrock/anthropic.claude-3-haiku' } },
        {
          model_name: 'v',
          svc_params: {
            model: 'vertex_ai/gemini-2.5-pro',
            vertex_project: 'p',
            vertex_credentials: JSON.stringify({
              private_key: 'PRIVATE-KEY-TEXT',
              token_uri: 'https://oauth2.example/token',
            }),
          },
        },
        {
          model_name: 'a',
          svc_params: { model: 'azure/d', api_base: 'https://x.example', azure_ad_token: 'ad-token-value' },
        },
      ],
      {},
      env,
    );
    const secretsOf = (d: NonNullable<typeof bedrock>) =>
      buildTarget(d, adapterFor(d.provider)!, env).secrets;
    expect(secretsOf(bedrock!)).toContain('aws-secret-from-env');
    expect(secretsOf(vertex!)).toContain('PRIVATE-KEY-TEXT');
    expect(secretsOf(vertex!)).not.toContain('https://oauth2.example/token');
    expect(secretsOf(azure!)).toContain('ad-token-value');
  });
});
