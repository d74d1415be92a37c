import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfigFile } from '../../src/config/config-file.js';
import { Router } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { acmeAdapter } from '../providers/acme-adapter.js';
import { configDir, configErrorOf as errorOf, problemsOf } from '../support/config-files.js';

let configs: Awaited<ReturnType<typeof configDir>>;
let dir: string;
const mock = useMock();
beforeAll(async () => {
  configs = await configDir();
  dir = configs.path;
});
afterAll(async () => {
  await configs.remove();
});

const file = (name: string, text: string): Promise<string> => configs.file(name, text);

/**
 * A `general_settings` schema of an app's own, as a server built on the library passes one (the
 * proxy's own is tested in proxy/test/config).
 */
const appSettings = z.strictObject({
  master_key: z.string().min(8, 'must be at least 8 characters').optional(),
  port: z.number().int().default(4000),
});

/** Loads an object config with no process environment and the app's general_settings schema. */
const load = (config: object, env: NodeJS.ProcessEnv = {}) =>
  loadConfigFile(config, { env, generalSettings: appSettings });

const deployment = { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000' } };

describe('loadConfigFile: reading', () => {
  it('reads every section of a YAML file, environment_variables feeding os.environ/ references', async () => {
    const path = await file(
      'full.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: os.environ/UPSTREAM_KEY, api_base: http://127.0.0.1:1/v1 }
router_settings: { num_retries: 1 }
svc_settings: { drop_params: true, request_timeout: 12 }
general_settings: { master_key: os.environ/MASTER }
environment_variables: { UPSTREAM_KEY: sk-from-file-0000, MASTER: sk-master-0000 }
`,
    );
    const loaded = loadConfigFile(path, { env: {}, generalSettings: appSettings });
    expect(loaded.file).toBe(path);
    expect(loaded.dir).toBe(dir);
    expect(loaded.modelList).toHaveLength(1);
    expect(loaded.routerSettings).toEqual({ drop_params: true, timeout: 12, num_retries: 1 });
    expect(loaded.svcSettings).toEqual({ drop_params: true, request_timeout: 12 });
    expect(loaded.generalSettings.master_key).toBe('sk-master-0000');
    expect(loaded.generalSettings.port).toBe(4000);
    expect(loaded.env.UPSTREAM_KEY).toBe('sk-from-file-0000');
  });

  it('lays environment_variables over a new environment, leaving process.env and the given env as they were', () => {
    const given = { KEEP: 'kept', OVER: 'from-env' };
    const loaded = loadConfigFile(
      { model_list: [], environment_variables: { OVER: 'from-file', SVC_CFG_TEST_ONLY: 'x', PORT: 8080 } },
      { env: given },
    );
    expect(loaded.env).toEqual({ KEEP: 'kept', OVER: 'from-file', SVC_CFG_TEST_ONLY: 'x', PORT: '8080' });
    expect(given).toEqual({ KEEP: 'kept', OVER: 'from-env' });
    expect(process.env.SVC_CFG_TEST_ONLY).toBeUndefined();
  });

  it('reads a JSON file', async () => {
    const path = await file('config.json', JSON.stringify({ model_list: [deployment] }));
    expect(loadConfigFile(path, { env: {} }).modelList[0]?.model_name).toBe('m');
  });

  it('takes an object, resolving relative paths against the working directory', () => {
    const loaded = loadConfigFile({ model_list: [deployment] }, { env: {} });
    expect(loaded.file).toBeUndefined();
    expect(loaded.dir).toBe(process.cwd());
  });

  it('keeps general_settings as an object when no schema is given', () => {
    const loaded = loadConfigFile({ general_settings: { anything: 1 } }, { env: {} });
    expect(loaded.generalSettings).toEqual({ anything: 1 });
  });
});

describe('loadConfigFile: problems', () => {
  it('lists a bad field of each of three sections in one error, each with its path, naming the file', async () => {
    const path = await file(
      'bad.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: sk-x-0000 }
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o-mini, api_key: sk-x-0000, rpm: fast }
router_settings: { num_retries: -1 }
general_settings: { master_key: short }
`,
    );
    const error = errorOf(() => loadConfigFile(path, { env: {}, generalSettings: appSettings }));
    expect(error.message).toContain(`config file ${path}`);
    expect(error.problems).toHaveLength(3);
    expect(error.problems).toEqual([
      expect.stringMatching(/^router_settings\.num_retries: /),
      expect.stringMatching(/^model_list\[1\]\.svc_params\.rpm: /),
      'general_settings.master_key: must be at least 8 characters',
    ]);
  });

  it('names an unknown section with the closest one', () => {
    expect(problemsOf(() => load({ model_lists: [] }))).toEqual([
      'unknown section `model_lists`; did you mean `model_list`?',
    ]);
  });

  it('points litellm_settings at svc_settings', () => {
    expect(problemsOf(() => load({ model_list: [], litellm_settings: { drop_params: true } }))).toEqual([
      'unknown section `litellm_settings`; did you mean `svc_settings`?',
    ]);
  });

  it('points litellm_params at svc_params, once, without also asking for svc_params', () => {
    const entry = { model_name: 'a', litellm_params: { model: 'openai/gpt-4o', api_key: 'sk-0000-0000' } };
    expect(problemsOf(() => load({ model_list: [deployment, entry] }))).toEqual([
      'unknown key `litellm_params` in `model_list[1]`; did you mean `svc_params`?',
    ]);
  });

  it('names an unknown general setting with the closest one of the app’s schema', () => {
    expect(
      problemsOf(() => load({ model_list: [], general_settings: { master_kye: 'sk-master-0000' } })),
    ).toEqual(['general_settings: unknown setting `master_kye`; did you mean `master_key`?']);
  });

  it('names the line and column of a YAML syntax error', async () => {
    const path = await file('syntax.yaml', 'model_list:\n  - model_name: a\n    svc_params: [\n');
    const error = errorOf(() => loadConfigFile(path));
    expect(error.message).toContain(path);
    expect(error.problems[0]).toMatch(/^YAML syntax at line 4, column 1: /);
  });

  it('names the line of a JSON syntax error', async () => {
    const path = await file('syntax.json', '{\n  "model_list": [\n}\n');
    expect(problemsOf(() => loadConfigFile(path))[0]).toMatch(/^JSON syntax at line 3, column \d+: /);
  });

  it('refuses a key given twice', async () => {
    const path = await file('twice.yaml', 'model_list: []\nmodel_list: []\n');
    expect(problemsOf(() => loadConfigFile(path))[0]).toMatch(/^YAML syntax at line 2, column 1: /);
  });

  it('says a missing file is missing', () => {
    expect(() => loadConfigFile(join(dir, 'nope.yaml'))).toThrow(/nope\.yaml: no such file/);
  });

  it('refuses a file that is not a mapping', async () => {
    const path = await file('list.yaml', '- a\n- b\n');
    expect(problemsOf(() => loadConfigFile(path))).toEqual([
      'expected a mapping with model_list and the other sections',
    ]);
  });

  it('refuses environment_variables that are not plain values', () => {
    expect(problemsOf(() => load({ environment_variables: { A: { nested: true } } }))).toEqual([
      'environment_variables.A: expected a string, number or boolean',
    ]);
  });

  it('never prints a value read from the environment, naming its variable instead', () => {
    const problems = problemsOf(() =>
      load({
        router_settings: { num_retries: 'os.environ/RETRIES' },
        svc_settings: { request_timeout: 'os.environ/TIMEOUT' },
        general_settings: { master_key: 'os.environ/MASTER' },
        environment_variables: {
          RETRIES: 'sk-secret-value-123',
          TIMEOUT: 'sk-secret-value-456',
          MASTER: 'sk-1',
        },
      }),
    );
    const text = problems.join('\n');
    expect(problems).toHaveLength(3);
    for (const secret of ['sk-secret-value-123', 'sk-secret-value-456', 'sk-1'])
      expect(text).not.toContain(secret);
    for (const name of ['RETRIES', 'TIMEOUT', 'MASTER'])
      expect(text).toContain(`environment variable ${name}`);
  });
});

describe('loadConfigFile: svc_settings', () => {
  it('maps each key onto the router setting it means', () => {
    const loaded = load({
      svc_settings: {
        drop_params: true,
        set_verbose: false,
        num_retries: 4,
        request_timeout: 30,
        allowed_fails: 2,
        cooldown_time: 10,
        fallbacks: [{ a: ['b'] }],
        cache: true,
        cache_params: { type: 'local', ttl: 60 },
      },
    });
    expect(loaded.routerSettings).toEqual({
      drop_params: true,
      set_verbose: false,
      num_retries: 4,
      timeout: 30,
      allowed_fails: 2,
      cooldown_time: 10,
      fallbacks: [{ a: ['b'] }],
      cache_responses: true,
      cache_kwargs: { ttl: 60 },
    });
  });

  it('maps a Redis cache_params onto the redis_* settings, leaving os.environ/ references to the Router', () => {
    const loaded = load({
      svc_settings: {
        cache_params: { type: 'redis', host: 'cache.internal', port: 6380, password: 'os.environ/REDIS_PW' },
      },
      environment_variables: { REDIS_PW: 'pw-0000' },
    });
    expect(loaded.routerSettings).toEqual({
      redis_host: 'cache.internal',
      redis_port: 6380,
      redis_password: 'os.environ/REDIS_PW',
    });
  });

  it('lets router_settings win over svc_settings', () => {
    const loaded = load({ svc_settings: { request_timeout: 30 }, router_settings: { timeout: 5 } });
    expect(loaded.routerSettings).toEqual({ timeout: 5 });
  });

  it('names a bad value by its svc_settings key, not the router setting it maps to', () => {
    expect(problemsOf(() => load({ svc_settings: { request_timeout: 'soon', cache: 'yes' } }))).toEqual([
      'svc_settings.request_timeout: expected number, received string',
      'svc_settings.cache: expected boolean, received string',
    ]);
  });

  it('refuses a cache type it has no store for, and Redis without a host', () => {
    expect(problemsOf(() => load({ svc_settings: { cache_params: { type: 's3' } } }))).toEqual([
      'svc_settings.cache_params.type: cache type `s3` is not supported; expected `local` (in memory) or `redis`',
    ]);
    expect(problemsOf(() => load({ svc_settings: { cache_params: { type: 'redis' } } }))).toEqual([
      'svc_settings.cache_params.host: is required with `type: redis`',
    ]);
  });

  it('names a misspelt key with the closest one', () => {
    expect(problemsOf(() => load({ svc_settings: { drop_param: true } }))).toEqual([
      'svc_settings: unknown setting `drop_param`; did you mean `drop_params`?',
    ]);
  });

  it('sends a router setting written under svc_settings to router_settings', () => {
    expect(problemsOf(() => load({ svc_settings: { routing_strategy: 'least-busy' } }))).toEqual([
      'svc_settings.routing_strategy: a router setting; put it under router_settings',
    ]);
  });

  it('refuses LiteLLM callback names, showing the equivalent callbacks entry', () => {
    const problems = problemsOf(() => load({ svc_settings: { success_callback: ['langfuse'] } }));
    expect(problems).toEqual([expect.stringMatching(/^svc_settings\.success_callback: not supported: /)]);
    expect(problems[0]).toContain(
      'callbacks: [{ type: "otlp", endpoint: "https://cloud.langfuse.com/api/public/otel/v1/traces"',
    );
  });
});

describe('Router.fromConfig', () => {
  it('builds a router from a file that serves a call, its key from environment_variables', async () => {
    mock.setBehavior('/cfg', { content: 'from config' });
    const path = await file(
      'router.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: os.environ/K, api_base: ${mock.url}/cfg/v1 }
environment_variables: { K: sk-key-0000 }
`,
    );
    const router = Router.fromConfig(path, { env: {} });
    try {
      const res = await router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]?.message.content).toBe('from config');
      const sent = mock.requests.find((r) => r.path.startsWith('/cfg'));
      expect(sent?.headers.authorization).toBe('Bearer sk-key-0000');
    } finally {
      await router.close();
    }
  });

  it('builds a router from an object that serves a call, svc_settings in force', async () => {
    mock.setBehavior('/obj', { content: 'from object' });
    const router = Router.fromConfig(
      {
        model_list: [
          {
            model_name: 'm',
            svc_params: { model: 'openai/gpt-4o', api_key: 'sk-0000-0000', api_base: `${mock.url}/obj/v1` },
          },
        ],
        svc_settings: { request_timeout: 7, num_retries: 0 },
      },
      { env: {} },
    );
    try {
      expect(router.settings.timeout).toBe(7);
      expect(router.settings.num_retries).toBe(0);
      const res = await router.acompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]?.message.content).toBe('from object');
    } finally {
      await router.close();
    }
  });

  it('takes deployments of the provider adapters it is given', () => {
    const config = {
      model_list: [{ model_name: 'a', svc_params: { model: 'acme/acme-large', api_key: 'acme-key-0000' } }],
    };
    const router = Router.fromConfig(config, { env: {}, providers: [acmeAdapter] });
    expect(router.modelList[0]?.svc_params.model).toBe('acme/acme-large');
    return router.close();
  });

  it('throws the ConfigError naming the file, before any call', async () => {
    const path = await file('router-bad.yaml', 'model_list:\n  - model_name: m\n    litellm_params: {}\n');
    const error = errorOf(() => Router.fromConfig(path, { env: {} }));
    expect(error.message).toContain(path);
    expect(error.problems).toEqual([
      'unknown key `litellm_params` in `model_list[0]`; did you mean `svc_params`?',
    ]);
  });
});
