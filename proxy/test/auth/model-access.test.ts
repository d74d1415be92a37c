import type { AuthContext } from '@svc/router/jwt';
import { describe, expect, it } from 'vitest';
import type { Caller, KeyIdentity } from '../../src/auth/caller.js';
import { checkModelAccess, modelRule } from '../../src/auth/model-access.js';

const key = (models: string[], teamId: string | null = null): KeyIdentity => ({
  keyHash: 'h',
  keyAlias: null,
  models,
  teamId,
  userId: null,
  organizationId: null,
  maxBudget: null,
  spend: 0,
  rpmLimit: null,
  tpmLimit: null,
  expiresAt: null,
  blocked: false,
  metadata: {},
});
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
const allows = (caller: Caller, models: string[]) => models.filter((m) => modelRule(caller)?.(m) ?? true);

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

describe('checkModelAccess', () => {
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
