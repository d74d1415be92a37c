// ConfigError lives in errors/ (providers throw it too, below config); this path stays for the gateway's
// imports until it reaches the library through the package's exports only.
export { ConfigError } from '../errors/config-error.js';
