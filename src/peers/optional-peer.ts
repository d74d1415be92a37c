import { createRequire } from 'node:module';
import { MissingPeerError } from '../errors/missing-peer.js';

const requireHere = createRequire(import.meta.url);

/** Whether a resolution failure means "not installed" (and not, say, an ESM-only package's exports). */
const notFound = (error: unknown): boolean =>
  (error as { code?: unknown } | undefined)?.code === 'MODULE_NOT_FOUND';

/**
 * An optional peer dependency: a package only some users need (Vertex's google-auth-library, Bedrock's
 * aws4, ioredis, gpt-tokenizer), installed by the app that needs it, loaded the first time it is needed
 * and kept. Whoever needs it checks it at construction when the configuration shows the need
 * (`check`, synchronous), then loads it on first use (`load`); after that `module` holds it, so the
 * hot path awaits nothing. Each package has one instance, in `src/peers/`.
 */
export class OptionalPeer<T> {
  #module: T | undefined;
  #loading: Promise<T> | undefined;
  #installed = false;

  constructor(
    /** The npm package name (the import specifier). */
    readonly packageName: string,
    /** What it does for whoever needs it, finishing "X needs <package> ...": `for SigV4 signing`. */
    readonly purpose: string,
  ) {}

  /** The module once loaded, else undefined. */
  get module(): T | undefined {
    return this.#module;
  }

  /** Whether the package resolves from this library (synchronous; a package found stays found). */
  installed(): boolean {
    if (this.#installed) return true;
    try {
      requireHere.resolve(this.packageName);
    } catch (error) {
      // an ESM-only package that exports nothing to `require` is there all the same
      if (notFound(error)) return false;
    }
    this.#installed = true;
    return true;
  }

  /** The error naming this package, what needs it and the command that installs it. */
  missing(neededBy: string, purpose = this.purpose): MissingPeerError {
    return new MissingPeerError(this.packageName, neededBy, purpose);
  }

  /**
   * The construction-time check: throws a MissingPeerError naming the package and `neededBy` unless it
   * is installed.
   */
  check(neededBy: string, purpose = this.purpose): void {
    if (!this.installed()) throw this.missing(neededBy, purpose);
  }

  /**
   * Imports the package, once (concurrent first calls share one import).
   *
   * @throws MissingPeerError (as a rejection) when it is not installed; the import's own error when it
   * is installed but fails to load.
   */
  load(neededBy: string, purpose = this.purpose): Promise<T> {
    if (this.#module !== undefined) return Promise.resolve(this.#module);
    if (!this.installed()) return Promise.reject(this.missing(neededBy, purpose));
    this.#loading ??= (import(this.packageName) as Promise<T>).then(
      (module) => {
        this.#module = module;
        return module;
      },
      (error: unknown) => {
        this.#loading = undefined; // a later call tries again
        throw error;
      },
    );
    return this.#loading;
  }

  /**
   * Loads a CommonJS package synchronously, once: for a constructor that must have it at once (a
   * RedisStore's client).
   *
   * @throws MissingPeerError when it is not installed.
   */
  loadSync(neededBy: string, purpose = this.purpose): T {
    if (this.#module !== undefined) return this.#module;
    this.check(neededBy, purpose);
    this.#module = requireHere(this.packageName) as T;
    return this.#module;
  }
}
