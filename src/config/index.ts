/**
 * `@svc/router/config`: the config file as `svc-router` reads it, for a server of your own built on the
 * Router. The loader and settings validation, the helpers that word a problem the way the library does
 * (one line per field, "did you mean" for unknown keys, never a secret's value), and the credential
 * masking used wherever settings are shown.
 *
 * @example
 * import { ConfigError, loadConfigFile } from '@svc/router/config';
 * const { modelList, routerSettings } = loadConfigFile('./config.yaml');
 * const router = new Router(modelList, routerSettings);
 */

export { isCredentialKey, maskCredentials } from '../callbacks/mask-key.js';
export { redisOptionsFromSettings, type StoreSettings } from '../stores/store-settings.js';
export { type CallbackSetting, type DestinationEntry, destinationsOf } from './callback-setting.js';
export { ConfigError } from './config-error.js';
export { CONFIG_SECTIONS, type LoadConfigOptions, type LoadedConfig, loadConfigFile } from './config-file.js';
export { pathOf } from './config-path.js';
export { parseSettings } from './parse-settings.js';
export { schemaKeysAt } from './schema-keys.js';
export type { ResolvedSettings, RouterSettings } from './settings-schema.js';
export { zodProblems } from './zod-problems.js';
