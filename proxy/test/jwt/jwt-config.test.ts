// JWT settings are checked when the proxy starts (CONTRACT 4): svc_jwtauth by the JWT module's rules,
// custom_validate by loading it, each problem named under general_settings.svc_jwtauth.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/router';
import { afterEach, expect, test } from 'vitest';
import { startProxy } from '../../src/index.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Starts a proxy from a config file with these general_settings; resolves to the ConfigError. */
async function startError(
  general: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): Promise<ConfigError> {
  dir = await mkdtemp(join(tmpdir(), 'svc-jwt-config-'));
  const configPath = join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify({ model_list: [], general_settings: general }));
  const error = await startProxy({ configPath, port: 0, env }).then(
    async (proxy) => {
      await proxy.close();
      throw new Error('the proxy started');
    },
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw error;
  return error;
}

const KEYS = { JWT_PUBLIC_KEY_URL: 'https://idp.example.com/jwks' };

test('a misspelled svc_jwtauth setting is named with the closest one', async () => {
  const error = await startError({ enable_jwt_auth: true, svc_jwtauth: { admin_jwt_scpoe: 'x' } }, KEYS);
  expect(error.problems).toEqual([
    'general_settings.svc_jwtauth: unknown setting `admin_jwt_scpoe`; did you mean `admin_jwt_scope`?',
  ]);
});

test('enable_jwt_auth without JWT_PUBLIC_KEY_URL (or public_key_url) is refused', async () => {
  const error = await startError({ enable_jwt_auth: true });
  expect(error.problems[0]).toMatch(/^general_settings\.svc_jwtauth\.public_key_url: no key set/);
});

test('a custom_validate module missing from the config directory is named', async () => {
  const error = await startError(
    { enable_jwt_auth: true, svc_jwtauth: { custom_validate: 'checks.allow' } },
    KEYS,
  );
  expect(error.problems).toEqual([
    'general_settings.svc_jwtauth.custom_validate: no `checks.js` or `checks.mjs` next to the config file',
  ]);
});

test('a custom_validate export that is not a function is named', async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-jwt-config-'));
  await writeFile(join(dir, 'checks.mjs'), 'export const allow = 42;\n');
  const configPath = join(dir, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      model_list: [],
      general_settings: { enable_jwt_auth: true, svc_jwtauth: { custom_validate: 'checks.allow' } },
    }),
  );
  const error = await startProxy({ configPath, port: 0, env: KEYS }).catch((e: unknown) => e);
  expect((error as ConfigError).problems).toEqual([
    'general_settings.svc_jwtauth.custom_validate: `checks` has no exported function `allow`',
  ]);
});
