/**
 * A feature needs an optional package that is not installed (google-auth-library, aws4, ioredis). The
 * message names what needs it, what for, and the command that installs it:
 * `vertex_ai/ deployment "gemini" needs google-auth-library for Application Default Credentials: npm install google-auth-library`.
 *
 * Thrown at construction when the configuration already shows the need (a `RedisStore`, a `bedrock/`
 * deployment signing with IAM keys, a `vertex_ai/` deployment without `api_key`): `new Router` reports
 * the deployments' needs among its ConfigError's problems, and `new RedisStore` throws this error. A
 * call that needs the package anyway fails with an AuthenticationError whose `cause` is this error.
 */
export class MissingPeerError extends Error {
  override readonly name = 'MissingPeerError';

  constructor(
    /** The npm package to install. */
    readonly packageName: string,
    /** What needs it, e.g. `vertex_ai/ deployment "gemini"`. */
    readonly neededBy: string,
    /** What the package does for it, e.g. `for Application Default Credentials`. */
    purpose: string,
  ) {
    super(`${neededBy} needs ${packageName} ${purpose}: npm install ${packageName}`);
  }
}
