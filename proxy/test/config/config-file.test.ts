// A config file read by the library's loader (`@svc/router/config`) with the proxy's general_settings
// schema, as `svc-router` reads it: the proxy's settings validated, defaulted and named in problems.
import { loadConfigFile } from '@svc/router/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configDir, configErrorOf, problemsOf } from '../../../test/support/config-files.js';
import { generalSettingsSchema } from '../../src/config/general-settings.js';

let dir: Awaited<ReturnType<typeof configDir>>;
beforeAll(async () => {
  dir = await configDir();
});
afterAll(async () => {
  await dir.remove();
});

/** Loads an object config with no process environment and the proxy's general_settings schema. */
const load = (config: object, env: NodeJS.ProcessEnv = {}) =>
  loadConfigFile(config, { env, generalSettings: generalSettingsSchema });

describe('a config file with the proxy’s general_settings', () => {
  it('reads general_settings beside the other sections, os.environ/ references resolved, defaults filled', async () => {
    const path = await dir.file(
      'full.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_key: os.environ/UPSTREAM_KEY, api_base: http://127.0.0.1:1/v1 }
router_settings: { num_retries: 1 }
general_settings: { master_key: os.environ/MASTER }
environment_variables: { UPSTREAM_KEY: sk-from-file-0000, MASTER: sk-master-0000 }
`,
    );
    const loaded = loadConfigFile(path, { env: {}, generalSettings: generalSettingsSchema });
    expect(loaded.modelList).toHaveLength(1);
    expect(loaded.routerSettings).toEqual({ num_retries: 1 });
    expect(loaded.generalSettings.master_key).toBe('sk-master-0000');
    expect(loaded.generalSettings.max_request_body_mb).toBe(10);
  });

  it('lists a bad general setting with the other sections’ problems, each with its path, naming the file', async () => {
    const path = await dir.file(
      'bad.yaml',
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o-mini, api_key: sk-x-0000, rpm: fast }
router_settings: { num_retries: -1 }
general_settings: { master_key: short }
`,
    );
    const error = configErrorOf(() =>
      loadConfigFile(path, { env: {}, generalSettings: generalSettingsSchema }),
    );
    expect(error.message).toContain(`config file ${path}`);
    expect(error.problems).toEqual([
      expect.stringMatching(/^router_settings\.num_retries: /),
      expect.stringMatching(/^model_list\[0\]\.svc_params\.rpm: /),
      'general_settings.master_key: must be at least 8 characters (it opens every admin route)',
    ]);
  });

  it('points a litellm_ general setting at its svc_ name', () => {
    expect(problemsOf(() => load({ model_list: [], general_settings: { litellm_jwtauth: {} } }))).toEqual([
      'general_settings: unknown setting `litellm_jwtauth`; did you mean `svc_jwtauth`?',
    ]);
  });

  it('never prints a general setting read from the environment, naming its variable instead', () => {
    const problems = problemsOf(() =>
      load({
        general_settings: { master_key: 'os.environ/MASTER' },
        environment_variables: { MASTER: 'sk-1' },
      }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('environment variable MASTER');
    expect(problems[0]).not.toContain('sk-1');
  });
});
