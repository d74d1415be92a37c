import { isPromise, type MaybePromise } from '../stores/store.js';
import { JwtAuthError } from './errors.js';
import type { JwtAuthDeps } from './types.js';

type Guarded<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => MaybePromise<Awaited<R>>
    : never;
};

/**
 * {@link JwtAuthDeps} whose every method answers (at once when the store does: a cached lookup costs
 * no promise), or fails with JwtAuthError 503 when the store failed: thrown when it failed at once,
 * else a rejection. Its callers answer at once when it does, so a throw travels up synchronously to
 * `authenticate` and `checkCredential`, which turn it into a rejection like the other.
 */
export type AuthStore = Guarded<JwtAuthDeps>;

const unavailable = (cause: unknown): JwtAuthError =>
  new JwtAuthError('auth_store_unavailable', 'The authentication store is unavailable; try again later', {
    cause,
  });
const rethrowUnavailable = (cause: unknown): never => {
  throw unavailable(cause);
};

const METHODS = [
  'getTeam',
  'findTeamsByAlias',
  'findOrganizationsByAlias',
  'getUser',
  'upsertUser',
  'upsertTeam',
  'getUserTeamIds',
  'addTeamMember',
  'removeTeamMember',
  'findKeyMapping',
] as const satisfies readonly (keyof JwtAuthDeps)[];

/**
 * Wraps the server's lookups so that a failing store refuses the request (503, a safe message, the
 * store's error as `cause`) instead of letting it through or leaking a database error to the caller.
 */
export function guardStore(deps: JwtAuthDeps): AuthStore {
  const missing = METHODS.filter((name) => typeof deps[name] !== 'function');
  if (missing.length > 0) {
    throw new TypeError(`createJwtAuth: deps is missing ${missing.map((m) => `${m}()`).join(', ')}`);
  }
  const store = {} as Record<string, (...args: unknown[]) => unknown>;
  for (const name of METHODS) {
    const method = deps[name] as (...args: unknown[]) => unknown;
    store[name] = (...args) => {
      let answer: unknown;
      let pending: boolean;
      try {
        answer = method.apply(deps, args);
        // inside the try: an answer whose `then` throws is the store failing too
        pending = isPromise(answer);
      } catch (cause) {
        throw unavailable(cause);
      }
      return pending ? Promise.resolve(answer).catch(rethrowUnavailable) : answer;
    };
  }
  return store as unknown as AuthStore;
}
