import type { AccessGroups } from '@svc/router';
import type { AuthContext } from '@svc/router/jwt';
import { describe, expect, it } from 'vitest';
import type { Caller, KeyIdentity } from '../../src/auth/caller.js';
import { checkModelAccess, modelRule } from '../../src/auth/model-access.js';
import { keyIdentity } from './key-identity.js';

const key = (models: string[], teamId: string | null = null): KeyIdentity => keyIdentity({ models, teamId });
const token = (allowed_models?: string[]): Caller => ({
  kind: 'jwt',
  auth: {
    kind: 'team',
    via: 'jwt',
    scopes: [],
    roles: [],
    claims: {},
    allowed_routes: [],
    ...(allowed_models && { allowed_models }),
  } as AuthContext,
});
const allows = (caller: Caller, models: string[], groups?: AccessGroups) =>
  models.filter((m) => modelRule(caller, groups)?.(m) ?? true);
const FAST: AccessGroups = new Map([['fast-models', new Set(['gpt-4o-mini', 'haiku'])]]);

describe('modelRule', () => {
  it('is undefined for the master key, a key without lists and an unrestricted token: nothing to ask', () => {
    expect(modelRule({ kind: 'master' })).toBeUndefined();
    expect(modelRule({ kind: 'key', key: key([]) })).toBeUndefined();
    expect(modelRule(token())).toBeUndefined();
  });

  it("takes a key's list as exact names", () => {
    expect(allows({ kind: 'key', key: key(['gpt-*', 'm']) }, ['m', 'gpt-4o', 'gpt-*'])).toEqual([
      'm',
      'gpt-*',
    ]);
  });

  it("needs both the key's list and its team's (patterns) to allow a model", () => {
    const caller: Caller = { kind: 'key', key: key(['gpt-4o', 'm']), teamModels: ['gpt-*'] };
    expect(allows(caller, ['gpt-4o', 'm', 'gpt-5'])).toEqual(['gpt-4o']);
    expect(allows({ kind: 'key', key: key([]), teamModels: ['gpt-*'] }, ['gpt-5', 'm'])).toEqual(['gpt-5']);
  });

  it("takes a token's allowed models as patterns", () => {
    expect(allows(token(['openai/*']), ['openai/gpt-5', 'm'])).toEqual(['openai/gpt-5']);
  });
});

describe('modelRule with access groups', () => {
  it("lets a key's list name an access group: every model group in it is allowed", () => {
    const caller: Caller = { kind: 'key', key: key(['fast-models']) };
    expect(allows(caller, ['gpt-4o-mini', 'haiku', 'gpt-4o', 'fast-models'], FAST)).toEqual([
      'gpt-4o-mini',
      'haiku',
      'fast-models',
    ]);
  });

  it("lets a team's and a token's list name an access group beside patterns", () => {
    const team: Caller = { kind: 'key', key: key([]), teamModels: ['fast-models', 'claude-*'] };
    expect(allows(team, ['haiku', 'claude-opus', 'gpt-4o'], FAST)).toEqual(['haiku', 'claude-opus']);
    expect(allows(token(['fast-models']), ['gpt-4o-mini', 'gpt-4o'], FAST)).toEqual(['gpt-4o-mini']);
  });

  it('keeps a name that is no access group an exact model name', () => {
    const caller: Caller = { kind: 'key', key: key(['slow-models', 'gpt-4o']) };
    expect(allows(caller, ['gpt-4o', 'haiku', 'slow-models'], FAST)).toEqual(['gpt-4o', 'slow-models']);
  });

  it('follows the access groups it is given: a new config snapshot grants anew', () => {
    const caller: Caller = { kind: 'key', key: key(['fast-models']) };
    const wider: AccessGroups = new Map([['fast-models', new Set(['gpt-4o-mini', 'gpt-4o'])]]);
    expect(allows(caller, ['gpt-4o'], FAST)).toEqual([]);
    expect(allows(caller, ['gpt-4o'], wider)).toEqual(['gpt-4o']);
  });

  it('returns the same predicate for the same list and snapshot: compiled once, not per call', () => {
    const models = ['fast-models'];
    const first = modelRule({ kind: 'key', key: key(models) }, FAST);
    expect(modelRule({ kind: 'key', key: key(models) }, FAST)).toBe(first);
  });
});

describe('checkModelAccess', () => {
  it('shows what an access group grants when it refuses', () => {
    expect(() => checkModelAccess({ kind: 'key', key: key(['fast-models']) }, 'gpt-4o', FAST)).toThrow(
      'This key may not call model `gpt-4o`; it may call: fast-models (access group: gpt-4o-mini, haiku).',
    );
  });

  it('names the list that refuses the model', () => {
    const caller: Caller = { kind: 'key', key: key(['m', 'premium'], 'ads'), teamModels: ['m'] };
    expect(() => checkModelAccess(caller, 'other')).toThrow(
      'This key may not call model `other`; it may call: m, premium.',
    );
    expect(() => checkModelAccess(caller, 'premium')).toThrow(
      "This key's team `ads` may not call model `premium`; it may call: m.",
    );
    expect(() => checkModelAccess(token(['m']), 'premium')).toThrow(
      'This token may not call model `premium`',
    );
  });
});
