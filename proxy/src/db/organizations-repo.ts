import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** An organization to store. */
export interface NewOrganization {
  organization_id: string;
  /** Unique among organizations when set (JWT alias resolution needs it so). */
  organization_alias?: string | null | undefined;
  models?: readonly string[] | undefined;
  /** Dollars. */
  max_budget?: number | null | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A stored organization, as read back. Unset fields are null. */
export interface OrganizationRow {
  organization_id: string;
  organization_alias: string | null;
  models: string[];
  max_budget: number | null;
  spend: number;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const ORGANIZATION_COLUMNS =
  'organization_id, organization_alias, models, max_budget, spend, metadata, created_at, updated_at';

/**
 * Stores a new organization and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `organization_alias` (or `organization_id`) when taken.
 */
export async function insertOrganization(db: Queryable, org: NewOrganization): Promise<OrganizationRow> {
  try {
    const { rows } = await db.query<OrganizationRow>(
      `INSERT INTO svc_organizations (organization_id, organization_alias, models, max_budget, metadata)
VALUES ($1, $2, $3::jsonb, $4, $5::jsonb)
RETURNING ${ORGANIZATION_COLUMNS}`,
      [
        org.organization_id,
        org.organization_alias ?? null,
        JSON.stringify(org.models ?? []),
        org.max_budget ?? null,
        JSON.stringify(org.metadata ?? {}),
      ],
    );
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'organization') ?? error;
  }
}

/** The organization with this id, or undefined. */
export async function getOrganization(
  db: Queryable,
  organizationId: string,
): Promise<OrganizationRow | undefined> {
  const { rows } = await db.query<OrganizationRow>(
    `SELECT ${ORGANIZATION_COLUMNS} FROM svc_organizations WHERE organization_id = $1`,
    [organizationId],
  );
  return rows[0];
}

/** Every organization with this alias: none or one, as the alias is unique. */
export async function findOrganizationsByAlias(db: Queryable, alias: string): Promise<OrganizationRow[]> {
  const { rows } = await db.query<OrganizationRow>(
    `SELECT ${ORGANIZATION_COLUMNS} FROM svc_organizations WHERE organization_alias = $1`,
    [alias],
  );
  return rows;
}
