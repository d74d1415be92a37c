import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { parseSettings } from '../../src/config/parse-settings.js';
import { MAX_CONFIG_DEPTH } from '../../src/config/resolve-env.js';
import { Router } from '../../src/index.js';
import { configErrorOf } from '../support/config-files.js';

const nested = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < depth; i++) value = { deeper: value };
  return value;
};

describe('cyclic and very deep config', () => {
  it('a cycle in svc_params is a ConfigError naming the path, not a RangeError', () => {
    const svcParams: Record<string, unknown> = { model: 'openai/gpt-4o', api_key: 'sk-test' };
    svcParams.extra_headers = { again: svcParams };
    const error = configErrorOf(() => new Router([{ model_name: 'm', svc_params: svcParams as never }]));
    expect(error.problems).toEqual([
      'model_list[0].svc_params.extra_headers.again: refers to itself (a cycle); config must be a tree',
    ]);
  });

  it('a cycle in settings is a ConfigError naming the path', () => {
    const kwargs: Record<string, unknown> = {};
    kwargs.self = kwargs;
    const error = configErrorOf(() => parseSettings({ default_svc_params: kwargs }));
    expect(error.problems).toEqual([
      'default_svc_params.self: refers to itself (a cycle); config must be a tree',
    ]);
  });

  it('nesting deeper than the bound is a ConfigError naming where it was cut', () => {
    const error = configErrorOf(() => parseSettings({ default_svc_params: { extra_body: nested(10_000) } }));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(
      new RegExp(
        `^default_svc_params\\.extra_body(\\.deeper)+: nested deeper than ${MAX_CONFIG_DEPTH} levels$`,
      ),
    );
  });

  it('a deep model list entry is a ConfigError too', () => {
    const error = configErrorOf(() =>
      buildDeployments(
        [{ model_name: 'm', svc_params: { model: 'openai/x', api_key: 'k', extra_body: nested(100_000) } }],
        {},
      ),
    );
    expect(error.problems[0]).toMatch(
      /^model_list\[0\]\.svc_params\.extra_body(\.deeper)+: nested deeper than/,
    );
  });

  it('the same object used twice (not a cycle) is fine', () => {
    const headers = { 'x-team': 'a' };
    const settings = parseSettings({ default_svc_params: { extra_headers: headers, headers } });
    expect(settings.default_svc_params).toMatchObject({ extra_headers: headers, headers });
  });

  it('a strategy object that refers to itself is the user’s live object: kept as is', () => {
    const strategy = {
      calls: 0,
      self: undefined as unknown,
      async asyncGetAvailableDeployment() {
        return undefined;
      },
    };
    strategy.self = strategy;
    expect(parseSettings({ routing_strategy: strategy }).routing_strategy).toBe(strategy);
  });
});

describe('__proto__, constructor and prototype keys', () => {
  it('a __proto__ key inside svc_params is dropped, not read as settings, and pollutes nothing', () => {
    const svcParams = JSON.parse(
      '{"model":"openai/gpt-4o","api_key":"sk-test","__proto__":{"weight":7,"rpm":3,"polluted":true}}',
    );
    const [deployment] = buildDeployments([{ model_name: 'm', svc_params: svcParams }], {});
    expect(deployment?.params.weight).toBeUndefined();
    expect(deployment?.params.rpm).toBeUndefined();
    expect(Object.keys(deployment?.params ?? {})).toEqual(['model', 'api_key']);
    expect(Object.hasOwn(deployment?.entry.svc_params ?? {}, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('constructor and prototype keys are dropped anywhere in the model list', () => {
    const entry = JSON.parse(
      '{"model_name":"m","svc_params":{"model":"openai/gpt-4o","api_key":"sk-test","constructor":{"prototype":{"polluted":1}},"extra_body":{"prototype":{"x":1},"__proto__":{"polluted":1}}},"model_info":{"__proto__":{"id":"forged"}}}',
    );
    const [deployment] = buildDeployments([entry], {});
    expect(deployment?.params).toEqual({ model: 'openai/gpt-4o', api_key: 'sk-test', extra_body: {} });
    expect(deployment?.id).not.toBe('forged');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('a __proto__ key in settings is dropped (also nested), and the setting it carried is not applied', () => {
    const settings = parseSettings(
      JSON.parse('{"__proto__":{"num_retries":9},"retry_policy":{"__proto__":{"TimeoutErrorRetries":5}}}'),
    );
    expect(settings.num_retries).toBe(2);
    expect(settings.retry_policy?.TimeoutErrorRetries).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('num_retries');
  });

  it('a provider prefix named like an Object.prototype member is an unknown provider', () => {
    const error = configErrorOf(() =>
      buildDeployments([{ model_name: 'm', svc_params: { model: 'constructor/x', api_key: 'k' } }], {}),
    );
    expect(error.problems[0]).toMatch(
      /^model_list\[0\]\.svc_params\.model: unknown provider `constructor\/`/,
    );
  });
});
