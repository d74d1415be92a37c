import type { AuthRuntime } from './auth-runtime.js';
import { asString, type ClaimReader, type Claims } from './claims.js';
import { JwtAuthError, quoted } from './errors.js';

const read = (reader: ClaimReader | undefined, claims: Claims) => (reader ? reader(claims) : undefined);

/**
 * The organization a token names: `org_id_jwt_field` as given, else `org_alias_jwt_field` looked up
 * (the organization must exist and the alias name exactly one; spec 5.3.2). A promise only for a
 * lookup.
 */
export function resolveOrg(
  rt: AuthRuntime,
  claims: Claims,
): string | undefined | Promise<string | undefined> {
  const id = asString(read(rt.fields.orgId, claims));
  if (id !== undefined) return id;
  const alias = asString(read(rt.fields.orgAlias, claims));
  // a promise only when an alias must be looked up: most tokens name no organization
  return alias === undefined ? undefined : orgByAlias(rt, alias);
}

async function orgByAlias(rt: AuthRuntime, alias: string): Promise<string> {
  const orgs = await rt.store.findOrganizationsByAlias(alias);
  if (orgs.length === 0)
    throw new JwtAuthError('organization_not_found', `No organization has the alias ${quoted(alias)}`);
  if (orgs.length > 1) {
    throw new JwtAuthError(
      'ambiguous_alias',
      `Organization alias ${quoted(alias)} is shared by ${orgs.length} organizations; an alias must name one organization`,
    );
  }
  return orgs[0]!.organization_id;
}
