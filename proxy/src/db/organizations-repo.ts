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
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration?: string | null | undefined;
  /** When the running budget period ends (set with `budget_duration`). */
  budget_reset_at?: Date | null | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A stored organization, as read back. Unset fields are null. */
export interface OrganizationRow {
  organization_id: string;
  organization_alias: string | null;
  models: string[];
  max_budget: number | null;
  spend: number;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration: string | null;
  /** When the running budget period ends: `spend` goes back to 0 then. */
  budget_reset_at: Date | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const ORGANIZATION_COLUMNS = `organization_id, organization_alias, models, max_budget, spend, budget_duration, budget_reset_at,
  metadata, created_at, updated_at`;

/**
 * Stores a new organization and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `organization_alias` (or `organization_id`) when taken.
 */
export async function insertOrganization(db: Queryable, org: NewOrganization): Promise<OrganizationRow> {
  try {
    const { rows } = await db.query<OrganizationRow>(
      `INSERT INTO svc_organizations (organization_id, organization_alias, models, max_budget, metadata,
  budget_duration, budget_reset_at)
VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, $6, $7)
RETURNING ${ORGANIZATION_COLUMNS}`,
      [
        org.organization_id,
        org.organization_alias ?? null,
        JSON.stringify(org.models ?? []),
        org.max_budget ?? null,
        JSON.stringify(org.metadata ?? {}),
        org.budget_duration ?? null,
        org.budget_reset_at ?? null,
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

/** Where `updateColumns` and `lockRow` find organizations. */
export const ORGANIZATIONS_TABLE = {
  table: 'svc_organizations',
  idColumn: 'organization_id',
  columns: ORGANIZATION_COLUMNS,
};

/** Deletes these organizations; returns those deleted, as they were. */
export async function deleteOrganizations(
  db: Queryable,
  organizationIds: readonly string[],
): Promise<OrganizationRow[]> {
  const { rows } = await db.query<OrganizationRow>(
    `DELETE FROM svc_organizations WHERE organization_id = ANY($1::text[]) RETURNING ${ORGANIZATION_COLUMNS}`,
    [organizationIds],
  );
  return rows;
}
