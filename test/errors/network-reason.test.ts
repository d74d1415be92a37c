import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactAddresses } from '../../src/errors/redact.js';
import { APIConnectionError, errorFromNetwork, Router, TimeoutError } from '../../src/index.js';
import { closedPort } from '../support/tcp-faults.js';

const ctx = { provider: 'openai', model: 'gpt-4o', modelId: 'dep-1' };
const nodeError = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

describe('what a network failure tells the caller', () => {
  it('a refused connection says so in words, without the host and port', () => {
    const error = errorFromNetwork(
      nodeError('connect ECONNREFUSED 10.0.0.5:8443', {
        code: 'ECONNREFUSED',
        address: '10.0.0.5',
        port: 8443,
      }),
      ctx,
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe('openai/gpt-4o request failed: connection refused (ECONNREFUSED)');
  });

  it('an unknown host name is not repeated', () => {
    const error = errorFromNetwork(
      nodeError('getaddrinfo ENOTFOUND llm.internal.example', {
        code: 'ENOTFOUND',
        hostname: 'llm.internal.example',
      }),
      ctx,
    );
    expect(error.message).toBe('openai/gpt-4o request failed: host name not found (ENOTFOUND)');
  });

  it("undici's connect timeout keeps its class and loses the attempted address", () => {
    const error = errorFromNetwork(
      nodeError('Connect Timeout Error (attempted address: llm.internal.example:443, timeout: 10000ms)', {
        code: 'UND_ERR_CONNECT_TIMEOUT',
      }),
      ctx,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      'openai/gpt-4o request timed out: connect timed out (UND_ERR_CONNECT_TIMEOUT)',
    );
  });

  it('an error of unknown code keeps its words, with addresses, URLs and named hosts removed', () => {
    const error = errorFromNetwork(
      nodeError('tunnel to llm.internal.example:8443 via http://10.1.2.3:3128/ failed at [fd00::5]:443', {
        code: 'E_TUNNEL',
        host: 'llm.internal.example',
      }),
      ctx,
    );
    expect(error.message).toBe(
      'openai/gpt-4o request failed: tunnel to [address] via [address] failed at [address] (E_TUNNEL)',
    );
  });

  it('removes only host names long enough not to hide ordinary words', () => {
    expect(redactAddresses('no route to db:5432 from app', ['db'])).toBe('no route to db:5432 from app');
    expect(redactAddresses('no route to vault:5432 from app', ['vault'])).toBe(
      'no route to [address] from app',
    );
  });

  it('keeps the original error, address and all, on the non-enumerable cause', () => {
    const original = nodeError('connect ECONNREFUSED 10.0.0.5:8443', { code: 'ECONNREFUSED' });
    const error = errorFromNetwork(original, ctx);
    expect(error.cause).toBe(original);
    expect(Object.keys(error)).not.toContain('cause');
    expect(JSON.stringify(error)).not.toContain('10.0.0.5');
  });
});

describe('a Router call to a deployment that refuses connections', () => {
  let port: number;
  let router: Router;
  beforeAll(async () => {
    port = await closedPort();
    router = new Router(
      [
        {
          model_name: 'g',
          svc_params: {
            model: 'openai/gpt-4o',
            api_base: `http://127.0.0.1:${port}/v1`,
            api_key: 'sk-up-0000',
          },
        },
      ],
      { num_retries: 0 },
    );
  });
  afterAll(() => router.close());

  it('rejects with a message that names neither the upstream host nor its port', async () => {
    const error = await router
      .acompletion({ model: 'g', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const { message, cause } = error as APIConnectionError & { cause: Error };
    expect(message).toContain('connection refused (ECONNREFUSED)');
    expect(message).not.toContain('127.0.0.1');
    expect(message).not.toContain(String(port));
    expect(cause.message).toContain(`127.0.0.1:${port}`);
  });
});
