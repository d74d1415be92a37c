import { isPromise, type MaybePromise } from '../stores/store.js';
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

/** What a team selection looks at: the token's teams, the request, and the settings. */
export interface TeamSelectionInput {
  /** From `team_id_jwt_field` (or the object id of a `team` role). */
  teamId: string | undefined;
  /** Every team id the token names: `teamId` first, then `team_ids_jwt_field`'s (`tokenTeamIds`). */
  ids: readonly string[];
  /** From `team_alias_jwt_field`: used only when the token names no team id (ids come first). */
  alias: string | undefined;
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
  /** Why no team was chosen although the token named some: the error to raise if nothing else identifies the caller. */
  refusal: JwtAuthError | undefined;
}

/** The token's team ids: `teamId` (from `team_id_jwt_field`) first, then `teamIds`, each once. */
export function tokenTeamIds(teamId: string | undefined, teamIds: readonly string[]): string[] {
  if (teamIds.length === 0) return teamId === undefined ? [] : [teamId];
  const ids = new Set<string>();
  if (teamId !== undefined) ids.add(teamId);
  for (const id of teamIds) ids.add(id);
  return [...ids];
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
 * refusal is thrown at once. Answers at once when the store does (a cached team): a promise only for
 * a lookup that must be waited for.
 */
export function selectTeam(input: TeamSelectionInput, store: AuthStore): MaybePromise<TeamSelection> {
  if (input.ids.length === 0 && input.alias !== undefined) {
    return teamByAlias(input.alias, store).then((aliasTeam) =>
      new TeamSearch(input, store, candidatesOf(input, [aliasTeam.team_id]), aliasTeam).from(0),
    );
  }
  return new TeamSearch(input, store, candidatesOf(input, input.ids), undefined).from(0);
}

/** The teams to try: `x-svc-team-id` alone when sent (it must be one of the token's), else all of them. */
function candidatesOf(input: TeamSelectionInput, ids: readonly string[]): readonly string[] {
  if (input.header === undefined) return ids;
  if (!ids.includes(input.header)) {
    throw new JwtAuthError(
      'team_not_in_token',
      `Team ${quoted(input.header)} (x-svc-team-id) is not one of the token's teams`,
    );
  }
  return [input.header];
}

/** One request's walk through its candidate teams, waiting only for lookups the store must make. */
class TeamSearch {
  #blocked: TeamRecord | undefined;
  #withoutAccess: TeamRecord | undefined;
  #existing = 0;

  constructor(
    private readonly input: TeamSelectionInput,
    private readonly store: AuthStore,
    private readonly candidates: readonly string[],
    private readonly aliasTeam: TeamRecord | undefined,
  ) {}

  /** The selection, from the `i`th candidate on. */
  from(i: number): MaybePromise<TeamSelection> {
    for (; i < this.candidates.length; i++) {
      const id = this.candidates[i]!;
      const found = this.#record(id);
      if (isPromise(found)) {
        const next = i + 1;
        return found.then((team) =>
          team && this.#accepts(team) ? { team, refusal: undefined } : this.from(next),
        );
      }
      if (found && this.#accepts(found)) return { team: found, refusal: undefined };
    }
    return this.#refuse();
  }

  /** The candidate's record: stored, or one its token may stand for (a `team` role, `team_id_upsert`). */
  #record(id: string): MaybePromise<TeamRecord | undefined> {
    if (id === this.aliasTeam?.team_id) return this.aliasTeam;
    const { input, store } = this;
    const found = store.getTeam(id);
    if (id !== input.teamId || !(input.roleTeam || input.upsert)) return found;
    const orMade = (team: TeamRecord | undefined): MaybePromise<TeamRecord | undefined> => {
      if (team) return team;
      // a `team` role's team need not exist: spend is tracked on it, with no record, no restrictions
      const made: TeamRecord = { team_id: id };
      if (input.roleTeam) return made;
      const upserted = store.upsertTeam(made);
      return isPromise(upserted) ? upserted.then(() => made) : made;
    };
    return isPromise(found) ? found.then(orMade) : orMade(found);
  }

  /** Whether an existing team is the one; when it is not, remembered as the refusal's reason. */
  #accepts(team: TeamRecord): boolean {
    this.#existing++;
    const model = this.input.model;
    if (model !== undefined && !teamAllowsModel(team, model)) this.#withoutAccess ??= team;
    else if (team.blocked) this.#blocked ??= team;
    else return true;
    return false;
  }

  #refuse(): TeamSelection {
    const input = this.input;
    const candidates = this.candidates;
    if (candidates.length === 0) return { team: undefined, refusal: undefined };
    let refusal: JwtAuthError;
    if (this.#blocked) {
      refusal = new JwtAuthError('team_blocked', `Team ${quoted(this.#blocked.team_id)} is blocked`);
    } else if (this.#existing === 0) {
      refusal =
        candidates.length === 1
          ? new JwtAuthError('team_not_found', `Team ${quoted(candidates[0]!)} does not exist`)
          : new JwtAuthError('team_not_found', "None of the token's teams exists");
    } else {
      const withoutAccess = this.#withoutAccess;
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
    return { team: undefined, refusal };
  }
}
