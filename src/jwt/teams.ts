import { isPromise } from '../stores/store.js';
import { JwtAuthError, quoted } from './errors.js';
import type { AuthStore } from './store.js';
import type { TeamRecord } from './types.js';
import { wildcard } from './wildcard.js';

/**
 * Whether a team may call a model: a team with no `models` (or an empty list, `*` or
 * `all-proxy-models`) may call every model; otherwise one entry must equal the model or match it as a
 * shell-style pattern (`openai/*`).
 */
export function teamAllowsModel(team: TeamRecord, model: string): boolean {
  const models = team.models;
  if (!models || models.length === 0) return true;
  return models.some((m) => m === '*' || m === 'all-proxy-models' || wildcard(m)(model));
}

/** What the token says about teams. */
export interface TeamClaims {
  /** From `team_id_jwt_field` (or the object id of a `team` role). */
  teamId: string | undefined;
  /** From `team_ids_jwt_field`, in token order. */
  teamIds: readonly string[];
  /** From `team_alias_jwt_field`: used only when the token names no team id (ids come first). */
  alias: string | undefined;
}

export interface TeamSelectionInput extends TeamClaims {
  /** `x-svc-team-id`. */
  header: string | undefined;
  /** The model asked for, when the route calls one. */
  model: string | undefined;
  /** `enforce_team_based_model_access`. */
  enforce: boolean;
  /** `team_id_upsert`: create the `teamId` team when missing. */
  upsert: boolean;
  /** The `teamId` comes from a `team` role (`enforce_rbac`): it need not exist (spec 5.4). */
  roleTeam?: boolean;
}

export interface TeamSelection {
  /** The team the request is charged to, with its record when the store has one. */
  team: TeamRecord | undefined;
  /** Every team id the token names (ids, else the alias's team), in order. */
  tokenTeamIds: string[];
  /** Why no team was chosen although the token named some: the error to raise if nothing else identifies the caller. */
  refusal: JwtAuthError | undefined;
}

/** Resolves `team_alias_jwt_field`: exactly one team must carry the alias (spec 5.3.2). */
async function teamByAlias(alias: string, store: AuthStore): Promise<TeamRecord> {
  const teams = await store.findTeamsByAlias(alias);
  if (teams.length === 0) throw new JwtAuthError('team_not_found', `No team has the alias ${quoted(alias)}`);
  if (teams.length > 1) {
    throw new JwtAuthError(
      'ambiguous_alias',
      `Team alias ${quoted(alias)} is shared by ${teams.length} teams; an alias must name one team`,
    );
  }
  return teams[0]!;
}

/**
 * Chooses the team a request is charged to (spec 5.3.1, 5.3.5, 5.3.6):
 *
 * - the token's team ids are `team_id_jwt_field` then `team_ids_jwt_field`; only when it has none is
 *   `team_alias_jwt_field` resolved (unique alias, existing team);
 * - `x-svc-team-id` must be one of them (else 403) and is then the only candidate;
 * - with a model, the first candidate that exists, is not blocked and may call the model is chosen
 *   (on every model route, `/v1/messages` too); without one, the first that exists and is not blocked;
 * - a blocked team is never chosen; a missing `team_id_jwt_field` team is created with `team_id_upsert`.
 *
 * When none is chosen, `refusal` says why; with `enforce_team_based_model_access` (and a model) that
 * refusal is thrown at once.
 */
export async function selectTeam(input: TeamSelectionInput, store: AuthStore): Promise<TeamSelection> {
  const ids = [...new Set([input.teamId, ...input.teamIds].filter((id): id is string => id !== undefined))];
  let aliasTeam: TeamRecord | undefined;
  if (ids.length === 0 && input.alias !== undefined) {
    aliasTeam = await teamByAlias(input.alias, store);
    ids.push(aliasTeam.team_id);
  }
  if (input.header !== undefined && !ids.includes(input.header)) {
    throw new JwtAuthError(
      'team_not_in_token',
      `Team ${quoted(input.header)} (x-svc-team-id) is not one of the token's teams`,
    );
  }
  const candidates = input.header !== undefined ? [input.header] : ids;
  if (candidates.length === 0) return { team: undefined, tokenTeamIds: ids, refusal: undefined };

  let blocked: TeamRecord | undefined;
  let withoutAccess: TeamRecord | undefined;
  let existing = 0;
  for (const id of candidates) {
    // awaited only when the store must look it up: a cached team costs no turn of promise jobs
    const found = id === aliasTeam?.team_id ? aliasTeam : store.getTeam(id);
    let team = isPromise(found) ? await found : found;
    if (!team && id === input.teamId && input.roleTeam) {
      // spend is tracked on a team object that need not exist; no record, no restrictions
      team = { team_id: id };
    } else if (!team && input.upsert && id === input.teamId) {
      team = { team_id: id };
      await store.upsertTeam(team);
    }
    if (!team) continue;
    existing++;
    if (input.model !== undefined && !teamAllowsModel(team, input.model)) {
      withoutAccess ??= team;
      continue;
    }
    if (team.blocked) {
      blocked ??= team;
      continue;
    }
    return { team, tokenTeamIds: ids, refusal: undefined };
  }

  let refusal: JwtAuthError;
  if (blocked) {
    refusal = new JwtAuthError('team_blocked', `Team ${quoted(blocked.team_id)} is blocked`);
  } else if (existing === 0) {
    refusal =
      candidates.length === 1
        ? new JwtAuthError('team_not_found', `Team ${quoted(candidates[0]!)} does not exist`)
        : new JwtAuthError('team_not_found', "None of the token's teams exists");
  } else {
    refusal =
      candidates.length === 1 && withoutAccess
        ? new JwtAuthError(
            'model_not_allowed',
            `Team ${quoted(withoutAccess.team_id)} has no access to model ${quoted(input.model ?? '')}`,
          )
        : new JwtAuthError(
            'model_not_allowed',
            `None of the token's teams has access to model ${quoted(input.model ?? '')}`,
          );
  }
  if (input.header !== undefined || (input.enforce && input.model !== undefined)) throw refusal;
  return { team: undefined, tokenTeamIds: ids, refusal };
}
