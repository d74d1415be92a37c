import { api } from './api.js';
import { shorten } from './format.js';

/** What the panels need of a key to name it. */
export interface KeyName {
  key_hash: string;
  key_alias: string | null;
}
/** What the panels need of a team to name it. */
export interface TeamName {
  team_id: string;
  team_alias: string | null;
}

/**
 * Keys and teams by id, so every panel names them by alias: teams as `/team/list` gives them, keys up
 * to the first 500 of `/key/list` (a key past them is named by its hash prefix).
 */
export const directory = {
  keys: new Map<string, KeyName>(),
  teams: new Map<string, TeamName>(),
  async load(): Promise<void> {
    const [keys, teams] = await Promise.all([
      api<{ data: KeyName[] }>('GET', '/key/list?page=1&size=500'),
      api<{ data: TeamName[] }>('GET', '/team/list'),
    ]);
    this.keys = new Map(keys.data.map((k) => [k.key_hash, k]));
    this.teams = new Map(teams.data.map((t) => [t.team_id, t]));
  },
  teamName(id: string | null): string {
    if (id === null) return '—';
    return this.teams.get(id)?.team_alias ?? id;
  },
  keyName(hash: string | null): string {
    if (hash === null) return 'master key';
    return this.keys.get(hash)?.key_alias ?? shorten(hash, 12);
  },
};
