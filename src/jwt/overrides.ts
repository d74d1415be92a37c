import { asList, type Claims } from './claims.js';
import type { ResolvedJwtSettings } from './settings-schema.js';
import { anyWildcard, type WildcardMatcher } from './wildcard.js';

type Rule = ResolvedJwtSettings['routing_overrides'][number];

const patternsOf = (selector: string | readonly string[]): string[] =>
  typeof selector === 'string' ? [selector] : [...selector];

function selectorMatcher(selector: string | readonly string[] | undefined, split: boolean) {
  if (selector === undefined) return undefined;
  const matches: WildcardMatcher = anyWildcard(patternsOf(selector));
  // a claim given as a list matches when any of its entries does; only `scope` strings are split
  return (claim: unknown) => asList(claim, split).some(matches);
}

/**
 * Compiles `routing_overrides` (spec 5.6) into one test of a token's (unverified) claims: true when a
 * rule matches, so the token goes to OAuth2 validation. A rule matches when all its selectors do (AND):
 * `iss` (required), `client_id`, `scope`, `aud`. A list selector matches when the claim matches any entry;
 * entries may use shell-style `*` and `?`, case-sensitive. A `scope` claim written as a space-separated
 * string is split; `iss`, `aud` and `client_id` never are. A selector whose claim is absent does not match.
 *
 * These claims are not verified: they only choose the validation path, which then validates the token.
 */
export function createOverrideMatcher(rules: readonly Rule[]): (claims: Claims) => boolean {
  const compiled = rules.map((rule) =>
    [
      ['iss', selectorMatcher(rule.iss, false)],
      ['client_id', selectorMatcher(rule.client_id, false)],
      ['scope', selectorMatcher(rule.scope, true)],
      ['aud', selectorMatcher(rule.aud, false)],
    ].filter((entry): entry is [string, (claim: unknown) => boolean] => entry[1] !== undefined),
  );
  if (compiled.length === 0) return () => false;
  return (claims) =>
    compiled.some((selectors) =>
      selectors.every(([name, matches]) => Object.hasOwn(claims, name) && matches(claims[name])),
    );
}
