import type { CallOptions, ProviderRuntime, ProviderTarget } from './provider-adapter.js';

/** A provider runtime its owner (the router) can read and release. */
export interface OwnedProviderRuntime extends ProviderRuntime {
  /** Every secret registered so far, as given (`redactSecrets` derives the encodings a provider may echo). */
  secrets(): readonly string[];
  /** Drops every cached value (token caches, auth clients). Secrets stay, so late errors are still redacted. */
  close(): void;
}

// Tokens rotate (Entra hourly): keep the most recent ones, enough for every credential of a large router.
const MAX_SECRETS = 1024;
// shorter strings would be replaced inside ordinary words; no real credential is this short
const MIN_SECRET_LENGTH = 4;

/**
 * The per-router state adapters keep across calls: values shared under a key (auth token caches) and
 * the secrets fetched along the way (access tokens, signed assertions), which every error, event and log
 * line about the router's targets is redacted of.
 *
 * @example
 * const runtime = createProviderRuntime();
 * await invokeJson(http, adapter, adapter.chat, request, target, { ...options, runtime });
 * runtime.close();
 */
export function createProviderRuntime(): OwnedProviderRuntime {
  const values = new Map<string, unknown>();
  const secrets = new Set<string>();
  let snapshot: readonly string[] | undefined;
  return {
    shared<T>(key: string, create: () => T): T {
      if (!values.has(key)) values.set(key, create());
      return values.get(key) as T;
    },
    addSecret(secret: string): void {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
      secrets.add(secret);
      if (secrets.size > MAX_SECRETS) secrets.delete(secrets.values().next().value as string);
      snapshot = undefined;
    },
    secrets(): readonly string[] {
      snapshot ??= Object.freeze([...secrets]);
      return snapshot;
    },
    close(): void {
      values.clear();
    },
  };
}

const isOwned = (runtime: ProviderRuntime): runtime is OwnedProviderRuntime =>
  typeof (runtime as Partial<OwnedProviderRuntime>).secrets === 'function';

// The runtime each target was last called with. A target is built once per deployment and lives as long
// as its router (or the caller's variable), so this weak side table frees itself with the target, and it
// lets errors made where no CallOptions reach (body and stream parsers) find the secrets fetched for it.
const byTarget = new WeakMap<ProviderTarget, ProviderRuntime>();

/**
 * The runtime of a call: `options.runtime` (the router's), else one kept for this target, created on
 * first use. Kept per target rather than made fresh per call so that an adapter called directly (tests,
 * scripts) still caches its token across calls and still redacts what it fetched.
 */
export function runtimeFor(target: ProviderTarget, options: Pick<CallOptions, 'runtime'>): ProviderRuntime {
  const given = options.runtime;
  if (given) {
    if (byTarget.get(target) !== given) byTarget.set(target, given);
    return given;
  }
  let own = byTarget.get(target);
  if (!own) {
    own = createProviderRuntime();
    byTarget.set(target, own);
  }
  return own;
}

/** The secrets fetched for a target's calls so far (empty before its first call). */
export function runtimeSecretsOf(target: ProviderTarget): readonly string[] {
  const runtime = byTarget.get(target);
  return runtime && isOwned(runtime) ? runtime.secrets() : [];
}
