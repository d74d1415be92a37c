import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { parseSettings } from '../../src/config/parse-settings.js';
import { Router } from '../../src/index.js';
import { configErrorOf } from '../support/config-files.js';

// What a user may have put in the wrong variable: a key. It must never reach an error message.
const SECRET = 'sk-proj-Secret1234567890';
const env = { X: SECRET, SHORT: 'ab', FB: 'sk-fallback-secret-0001' };

const listError = (svcParams: Record<string, unknown>) =>
  configErrorOf(() =>
    buildDeployments([{ model_name: 'm', svc_params: { api_key: 'sk-test', ...svcParams } }], {}, env),
  );

describe('a bad value read from os.environ/ is named by its variable, never printed', () => {
  it('model: os.environ/X with a value that is not <provider>/<model>', () => {
    const error = listError({ model: 'os.environ/X' });
    expect(error.message).not.toContain(SECRET);
    expect(error.problems).toEqual([
      expect.stringMatching(
        /^model_list\[0\]\.svc_params\.model: the value of environment variable X is invalid: expected `<provider>\/<model>`/,
      ),
    ]);
  });

  it('model: os.environ/X whose value has an unknown provider prefix', () => {
    const error = configErrorOf(() =>
      buildDeployments(
        [{ model_name: 'm', svc_params: { model: 'os.environ/X', api_key: 'k' } }],
        {},
        { X: 'sk-proj/Secret1234567890' },
      ),
    );
    expect(error.message).not.toContain('sk-proj');
    expect(error.message).toContain('environment variable X is invalid: unknown provider');
  });

  it('a number field set from the environment (a string) says so without the value', () => {
    const error = listError({ model: 'openai/gpt-4o', rpm: 'os.environ/X' });
    expect(error.message).not.toContain(SECRET);
    expect(error.problems[0]).toMatch(
      /^model_list\[0\]\.svc_params\.rpm: the value of environment variable X is invalid: expected number.*environment are strings/,
    );
  });

  it('a short value is not printed either', () => {
    const error = listError({ model: 'os.environ/SHORT' });
    expect(error.message).not.toMatch(/`ab`/);
    expect(error.message).toContain('environment variable SHORT');
  });

  it('api_base: os.environ/X that is not a URL', () => {
    const error = listError({ model: 'openai/gpt-4o', api_base: 'os.environ/X' });
    expect(error.message).not.toContain(SECRET);
    expect(error.message).toContain('svc_params.api_base: the value of environment variable X is invalid');
  });

  it('routing_strategy: os.environ/X that names no strategy', () => {
    const error = configErrorOf(() => parseSettings({ routing_strategy: 'os.environ/X' } as never, env));
    expect(error.message).not.toContain(SECRET);
    expect(error.problems[0]).toMatch(
      /^routing_strategy: the value of environment variable X is invalid: unknown strategy `os.environ\/X`/,
    );
  });

  it('debug_level and redis_port from the environment', () => {
    const error = configErrorOf(() =>
      parseSettings({ debug_level: 'os.environ/X', redis_port: 'os.environ/X' } as never, env),
    );
    expect(error.message).not.toContain(SECRET);
    expect(error.problems).toHaveLength(2);
    for (const problem of error.problems) expect(problem).toContain('environment variable X is invalid');
  });

  it('default_svc_params.model from the environment', () => {
    const error = configErrorOf(() => parseSettings({ default_svc_params: { model: 'os.environ/X' } }, env));
    expect(error.message).not.toContain(SECRET);
    expect(error.message).toContain(
      'default_svc_params.model: the value of environment variable X is invalid',
    );
  });

  it('a fallback group read from the environment that names no group', () => {
    const error = configErrorOf(
      () =>
        new Router(
          [{ model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test' } }],
          { fallbacks: [{ m: ['os.environ/FB'] }], default_fallbacks: ['os.environ/FB'] },
          { env },
        ),
    );
    expect(error.message).not.toContain(env.FB);
    expect(error.problems).toEqual([
      'fallbacks[0].m: unknown model group `os.environ/FB`',
      'default_fallbacks: unknown model group `os.environ/FB`',
    ]);
  });
});
