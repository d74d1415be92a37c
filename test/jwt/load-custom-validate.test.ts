import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { loadCustomValidate } from '../../src/jwt/index.js';

const dir = fileURLToPath(new URL('./fixtures/custom-validate', import.meta.url));

describe('loadCustomValidate (custom_validate: "module.function")', () => {
  test('loads the exported function of module.mjs next to the config', async () => {
    const validate = await loadCustomValidate('checks.allowTenant', dir);
    expect([validate({ tenant: 'acme' }), validate({ tenant: 'other' })]).toEqual([true, false]);
  });

  test.each([
    ['checks', /expected `module.function`/],
    ['missing.fn', /no `missing.js` or `missing.mjs` next to the config file/],
    ['checks.nothing', /`checks` has no exported function `nothing`/],
    ['checks.notAFunction', /`checks` has no exported function `notAFunction`/],
    ['../../helpers/idp.startIdp', /must be inside the config directory/],
  ])('%s is a ConfigError naming custom_validate', async (spec, message) => {
    const err = await loadCustomValidate(spec, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems[0]).toMatch(/^custom_validate: /);
    expect((err as ConfigError).message).toMatch(message);
  });
});
