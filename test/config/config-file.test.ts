import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfigFile } from '../../src/config/config-file.js';
import { Router } from '../../src/index.js';
import { generalSettingsSchema } from '../../src/proxy/config/general-settings.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';

let dir: string;
let mock: MockProvider;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
  mock = await startMockProvider();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await mock.close();
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfigFile', () => {
  it('reads every section of a YAML file, environment_variables feeding os.environ/ references', async () => {
    const path = await file(
      'full.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: os.environ/UPSTREAM_KEY, api_base: http://127.0.0.1:1/v1 }
router_settings: { num_retries: 1 }
svc_settings: { drop_params: true, request_timeout: 12 }
general_settings: { master_key: sk-master-0000 }
environment_variables: { UPSTREAM_KEY: sk-from-file-0000 }
`,
    );
    const loaded = loadConfigFile(path, { env: {}, generalSettings: generalSettingsSchema });
    expect(loaded.file).toBe(path);
    expect(loaded.dir).toBe(dir);
    expect(loaded.routerSettings).toEqual({ drop_params: true, timeout: 12, num_retries: 1 });
    expect(loaded.generalSettings.master_key).toBe('sk-master-0000');
    expect(loaded.env.UPSTREAM_KEY).toBe('sk-from-file-0000');
    expect(process.env.UPSTREAM_KEY).toBeUndefined();
  });

  it('lists every problem of every section at once, each with its path, naming the file', async () => {
    const path = await file(
      'bad.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: sk-x-0000, rpm: fast }
router_settings: { num_retries: -1 }
general_settings: { max_request_body_mb: big }
`,
    );
    const error = (() => {
      try {
        loadConfigFile(path, { env: {}, generalSettings: generalSettingsSchema });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error?.message).toContain(path);
    expect(error?.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^model_list\[0\]\.svc_params\.rpm: /),
        expect.stringMatching(/^router_settings\.num_retries: /),
        expect.stringMatching(/^general_settings\.max_request_body_mb: /),
      ]),
    );
  });

  it('points LiteLLM names at their svc_ names', () => {
    const problems = problemsOf(() =>
      loadConfigFile(
        {
          model_list: [{ model_name: 'a', litellm_params: { model: 'openai/gpt-4o' } }],
          litellm_settings: { drop_params: true },
        },
        { env: {} },
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'unknown section `litellm_settings`; did you mean `svc_settings`?',
        'model_list[0]: unknown key `litellm_params`; did you mean `svc_params`?',
      ]),
    );
  });

  it('refuses string callbacks in svc_settings, saying how loggers are given', () => {
    const problems = problemsOf(() =>
      loadConfigFile({ model_list: [], svc_settings: { success_callback: ['langfuse'] } }, { env: {} }),
    );
    expect(problems[0]).toMatch(/^svc_settings\.success_callback: not supported/);
  });

  it('names the line of a YAML syntax error', async () => {
    const path = await file('syntax.yaml', 'model_list:\n  - model_name: a\n   svc_params: [\n');
    const problems = problemsOf(() => loadConfigFile(path));
    expect(problems[0]).toMatch(/^YAML syntax at line \d+, column \d+/);
  });

  it('says a missing file is missing', () => {
    expect(() => loadConfigFile(join(dir, 'nope.yaml'))).toThrow(/nope\.yaml: no such file/);
  });

  it('never prints a value read from the environment', () => {
    const problems = problemsOf(() =>
      loadConfigFile(
        {
          model_list: [],
          router_settings: { num_retries: 'os.environ/RETRIES' },
          environment_variables: { RETRIES: 'sk-secret-value-123' },
        },
        { env: {} },
      ),
    );
    expect(problems.join('\n')).not.toContain('sk-secret-value-123');
    expect(problems.join('\n')).toContain('RETRIES');
  });
});

describe('Router.fromConfig', () => {
  it('builds a router from a file that serves a call', async () => {
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
    } finally {
      await router.close();
    }
  });

  it('builds a router from an object', async () => {
    const router = Router.fromConfig({
      model_list: [
        {
          model_name: 'm',
          svc_params: { model: 'openai/gpt-4o', api_key: 'sk-0000-0000', mock_response: 'mocked' },
        },
      ],
    });
    try {
      const res = await router.acompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]?.message.content).toBe('mocked');
    } finally {
      await router.close();
    }
  });
});
