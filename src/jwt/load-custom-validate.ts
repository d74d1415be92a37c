import { access } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors/config-error.js';
import type { CustomValidate } from './settings-schema.js';

const problem = (message: string) => new ConfigError('JWT auth settings', [`custom_validate: ${message}`]);

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Loads the function a config file names as `custom_validate: "module.function"` (CONTRACT 5.6):
 * `module.js` (or `module.mjs`) in `directory` (the config file's), export `function`. The module must
 * lie inside `directory`. Throws ConfigError naming `custom_validate` when the path is malformed, the
 * file is missing, it fails to load, or the export is not a function.
 *
 * @example
 * const custom_validate = await loadCustomValidate('checks.allow_tenant', dirname(configPath));
 * const auth = createJwtAuth({ ...svc_jwtauth, custom_validate }, deps);
 */
export async function loadCustomValidate(spec: string, directory: string): Promise<CustomValidate> {
  const dot = spec.lastIndexOf('.');
  const modulePath = spec.slice(0, dot);
  const name = spec.slice(dot + 1);
  if (dot <= 0 || !/^[A-Za-z_$][\w$]*$/.test(name)) {
    throw problem(`expected \`module.function\` (got \`${spec}\`)`);
  }
  let file: string | undefined;
  for (const candidate of [`${modulePath}.js`, `${modulePath}.mjs`]) {
    const path = join(directory, candidate);
    const inside = relative(directory, path);
    if (isAbsolute(candidate) || inside.startsWith('..') || isAbsolute(inside)) {
      throw problem(`the module must be inside the config directory (got \`${spec}\`)`);
    }
    if (await exists(path)) {
      file = path;
      break;
    }
  }
  if (!file) throw problem(`no \`${modulePath}.js\` or \`${modulePath}.mjs\` next to the config file`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new ConfigError('JWT auth settings', [
      `custom_validate: \`${modulePath}\` failed to load: ${cause instanceof Error ? cause.message : String(cause)}`,
    ]);
  }
  const fn = module[name];
  if (typeof fn !== 'function') throw problem(`\`${modulePath}\` has no exported function \`${name}\``);
  return fn as CustomValidate;
}
