import type { AccessGroups } from '@svc/router';
import { anyWildcard, type WildcardMatcher } from '@svc/router/jwt';
import { ProxyError } from '../http/proxy-error.js';
import type { Caller } from './caller.js';

/** No access groups (a model list without `model_info.access_groups`). */
const NO_ACCESS_GROUPS: AccessGroups = new Map();

/** Whether a caller may call a model (a model group, or a `<provider>/<model>` passed through). */
export type ModelRule = (model: string) => boolean;

type Compile = (list: readonly string[], groups: AccessGroups) => WildcardMatcher;

/**
 * A key's and its team's lists live as long as the cached key and team, the access groups as long as
 * the router's config: each list is compiled once per config, not per call.
 */
class CompiledLists {
  readonly #byGroups = new WeakMap<AccessGroups, WeakMap<readonly string[], WildcardMatcher>>();

  constructor(private readonly compile: Compile) {}

  get(list: readonly string[], groups: AccessGroups): WildcardMatcher {
    let lists = this.#byGroups.get(groups);
    if (lists === undefined) {
      lists = new WeakMap();
      this.#byGroups.set(groups, lists);
    }
    let matcher = lists.get(list);
    if (matcher === undefined) {
      matcher = this.compile(list, groups);
      lists.set(list, matcher);
    }
    return matcher;
  }
}

/** The model groups the access groups named in `list` grant; undefined when it names none. */
function granted(list: readonly string[], groups: AccessGroups): ReadonlySet<string> | undefined {
  if (groups.size === 0) return undefined;
  const out = new Set<string>();
  for (const name of list) for (const model of groups.get(name) ?? []) out.add(model);
  return out.size > 0 ? out : undefined;
}

/** Team and token lists: entries may be patterns (`gpt-*`) or access groups. */
const patternLists = new CompiledLists((list, groups) => {
  const matches = anyWildcard(list);
  const grants = granted(list, groups);
  return grants ? (model) => grants.has(model) || matches(model) : matches;
});

/** Key lists: exact names or access groups. */
const exactLists = new CompiledLists((list, groups) => {
  const set = new Set(list);
  for (const model of granted(list, groups) ?? []) set.add(model);
  return (model) => set.has(model);
});

/**
 * What the caller may call, as one predicate: the key's `models` (exact names) and its team's `models`
 * (patterns allowed; each list when not empty, both must allow), or the token's `allowed_models` (what
 * its role, scopes and team allow, as the JWT module decided). An entry naming an access group
 * (`model_info.access_groups`, from `router.getAccessGroups()`) allows every model group in it.
 * Undefined when nothing restricts the caller (the master key, an unrestricted key or token): then the
 * router has nothing to ask on the call path. The routes pass it to the router as `allowModel`, so that
 * no fallback reaches a model the caller could not ask for.
 */
export function modelRule(caller: Caller, groups: AccessGroups = NO_ACCESS_GROUPS): ModelRule | undefined {
  if (caller.kind === 'master') return undefined;
  if (caller.kind === 'jwt') {
    const allowed = caller.auth.allowed_models;
    return allowed === undefined ? undefined : patternLists.get(allowed, groups);
  }
  const own = caller.key.models.length > 0 ? exactLists.get(caller.key.models, groups) : undefined;
  const team = caller.teamModels?.length ? patternLists.get(caller.teamModels, groups) : undefined;
  if (own && team) return (model) => own(model) && team(model);
  return own ?? team;
}

/** Whether the caller may call (and see) `model`. */
export function modelAllowed(caller: Caller, groups: AccessGroups = NO_ACCESS_GROUPS): ModelRule {
  return modelRule(caller, groups) ?? (() => true);
}

/**
 * Throws 403 `model_not_allowed` naming the list that does not allow `model`. `pattern`: the wildcard
 * `model_name` (`openai/*`) serving `model`, if any; a list that names the pattern allows the model too
 * (a key whose `models` lists `openai/*` may call `openai/gpt-4o`).
 */
export function checkModelAccess(
  caller: Caller,
  model: string,
  groups: AccessGroups = NO_ACCESS_GROUPS,
  pattern?: string,
): void {
  if (caller.kind === 'master') return;
  const allows = (matcher: WildcardMatcher) => matcher(model) || (pattern !== undefined && matcher(pattern));
  if (caller.kind === 'jwt') {
    const allowed = caller.auth.allowed_models;
    if (allowed === undefined || allows(patternLists.get(allowed, groups))) return;
    throw refusal('This token', model, allowed, groups);
  }
  const { key, teamModels } = caller;
  if (key.models.length > 0 && !allows(exactLists.get(key.models, groups)))
    throw refusal('This key', model, key.models, groups);
  if (teamModels?.length && !allows(patternLists.get(teamModels, groups))) {
    throw refusal(`This key's team \`${key.teamId}\``, model, teamModels, groups);
  }
}

function refusal(who: string, model: string, allowed: readonly string[], groups: AccessGroups): ProxyError {
  // an access group is shown with what it grants: the caller sees why its model is not among them
  const entries = allowed.map((name) => {
    const members = groups.get(name);
    return members ? `${name} (access group: ${[...members].join(', ')})` : name;
  });
  return new ProxyError(
    403,
    'model_not_allowed',
    `${who} may not call model \`${model}\`; it may call: ${entries.join(', ')}.`,
  );
}
