import { anyWildcard, type WildcardMatcher } from '@svc/router/jwt';
import { ProxyError } from '../http/proxy-error.js';
import type { Caller } from './caller.js';

/** Whether a caller may call a model (a model group, or a `<provider>/<model>` passed through). */
export type ModelRule = (model: string) => boolean;

// A key's and its team's lists live as long as the cached key and team: each is compiled once
const patterns = new WeakMap<readonly string[], WildcardMatcher>();
const names = new WeakMap<readonly string[], WildcardMatcher>();

function compiledOnce(
  cache: WeakMap<readonly string[], WildcardMatcher>,
  list: readonly string[],
  compile: (list: readonly string[]) => WildcardMatcher,
): WildcardMatcher {
  let matcher = cache.get(list);
  if (matcher === undefined) {
    matcher = compile(list);
    cache.set(list, matcher);
  }
  return matcher;
}

/** The matcher of a team's or a token's model list, whose entries may be patterns (`gpt-*`). */
const matcherOf = (list: readonly string[]) => compiledOnce(patterns, list, anyWildcard);

/** The matcher of a key's model list: exact names. */
const exactMatcherOf = (list: readonly string[]) =>
  compiledOnce(names, list, (l) => {
    const set = new Set(l);
    return (model) => set.has(model);
  });

/**
 * What the caller may call, as one predicate: the key's `models` (exact names) and its team's `models`
 * (patterns allowed; each list when not empty, both must allow), or the token's `allowed_models` (what
 * its role, scopes and team allow, as the JWT module decided). Undefined when nothing restricts the
 * caller (the master key, an unrestricted key or token): then the router has nothing to ask on the call
 * path. The routes pass it to the router as `allowModel`, so that no fallback reaches a model the caller
 * could not ask for.
 */
export function modelRule(caller: Caller): ModelRule | undefined {
  if (caller.kind === 'master') return undefined;
  if (caller.kind === 'jwt') {
    const allowed = caller.auth.allowed_models;
    return allowed === undefined ? undefined : matcherOf(allowed);
  }
  const own = caller.key.models.length > 0 ? exactMatcherOf(caller.key.models) : undefined;
  const team = caller.teamModels?.length ? matcherOf(caller.teamModels) : undefined;
  if (own && team) return (model) => own(model) && team(model);
  return own ?? team;
}

/** Whether the caller may call (and see) `model`. */
export function modelAllowed(caller: Caller): ModelRule {
  return modelRule(caller) ?? (() => true);
}

/** Throws 403 `model_not_allowed` naming the list that does not allow `model`. */
export function checkModelAccess(caller: Caller, model: string): void {
  if (caller.kind === 'master') return;
  if (caller.kind === 'jwt') {
    const allowed = caller.auth.allowed_models;
    if (allowed === undefined || matcherOf(allowed)(model)) return;
    throw refusal('This token', model, allowed);
  }
  const { key, teamModels } = caller;
  if (key.models.length > 0 && !exactMatcherOf(key.models)(model))
    throw refusal('This key', model, key.models);
  if (teamModels?.length && !matcherOf(teamModels)(model)) {
    throw refusal(`This key's team \`${key.teamId}\``, model, teamModels);
  }
}

function refusal(who: string, model: string, allowed: readonly string[]): ProxyError {
  return new ProxyError(
    403,
    'model_not_allowed',
    `${who} may not call model \`${model}\`; it may call: ${allowed.join(', ')}.`,
  );
}
