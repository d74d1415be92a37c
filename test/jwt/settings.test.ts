import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseJwtSettings } from '../../src/jwt/parse-settings.js';

const URL_ = 'https://idp.example.com/.well-known/openid-configuration';
const parse = (settings: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  parseJwtSettings({ public_key_url: URL_, ...settings } as never, env);

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults (spec 5.2, 8)', () => {
  const s = parse({});

  test('admin_jwt_scope defaults to svc_proxy_admin', () => {
    expect(s.admin_jwt_scope).toBe('svc_proxy_admin');
  });

  test('admins get management, spend, global spend and info routes by default', () => {
    expect(s.admin_allowed_routes).toEqual([
      'management_routes',
      'spend_tracking_routes',
      'global_spend_tracking_routes',
      'info_routes',
    ]);
  });

  test('teams get openai and info routes by default; public routes are public_routes', () => {
    expect(s.team_allowed_routes).toEqual(['openai_routes', 'info_routes']);
    expect(s.public_allowed_routes).toEqual(['public_routes']);
  });

  test('the team id is read from client_id by default', () => {
    expect(s.team_id_jwt_field).toBe('client_id');
  });

  test('virtual key mapping and UserInfo answers are cached 300 s; public keys 600 s', () => {
    expect(s.virtual_key_mapping_cache_ttl).toBe(300);
    expect(s.oidc_userinfo_cache_ttl).toBe(300);
    expect(s.public_key_ttl).toBe(600);
  });

  test('every enforce_* and upsert switch is off by default', () => {
    expect([
      s.enforce_rbac,
      s.enforce_scope_based_access,
      s.enforce_team_based_model_access,
      s.user_id_upsert,
      s.team_id_upsert,
      s.sync_user_role_and_teams,
      s.oidc_userinfo_enabled,
      s.enable_oauth2_auth,
    ]).toEqual([false, false, false, false, false, false, false, false]);
  });

  test('the audience is not checked when none is configured', () => {
    expect(s.audiences).toBeUndefined();
  });
});

describe('environment', () => {
  test('JWT_PUBLIC_KEY_URL is read when public_key_url is not set, split on commas', () => {
    const s = parseJwtSettings({}, { JWT_PUBLIC_KEY_URL: 'https://a.example/jwks, https://b.example/jwks' });
    expect(s.public_key_urls).toEqual(['https://a.example/jwks', 'https://b.example/jwks']);
  });

  test('JWT_AUDIENCE is read when audience is not set', () => {
    expect(parse({}, { JWT_AUDIENCE: 'api://gateway' }).audiences).toEqual(['api://gateway']);
  });

  test('audience may be a list', () => {
    expect(parse({ audience: ['a', 'b'] }).audiences).toEqual(['a', 'b']);
  });

  test('OAuth2 token info endpoint and field names come from OAUTH_* variables', () => {
    const s = parse(
      { enable_oauth2_auth: true },
      {
        OAUTH_TOKEN_INFO_ENDPOINT: 'https://idp.example/tokeninfo',
        OAUTH_USER_ID_FIELD_NAME: 'uid',
      },
    );
    expect(s.oauth2_token_info_endpoint).toBe('https://idp.example/tokeninfo');
    expect([
      s.oauth_user_id_field_name,
      s.oauth_user_role_field_name,
      s.oauth_user_team_id_field_name,
    ]).toEqual(['uid', 'role', 'team_id']);
  });

  test('os.environ/NAME references in settings are resolved', () => {
    const s = parse({ admin_jwt_scope: 'os.environ/ADMIN_SCOPE' }, { ADMIN_SCOPE: 'gateway.admin' });
    expect(s.admin_jwt_scope).toBe('gateway.admin');
  });
});

describe('invalid settings fail at creation, naming the field', () => {
  test('a misspelt setting gets the closest name', () => {
    expect(problemsOf(() => parse({ admin_jwt_scpoe: 'x' }))).toEqual([
      'unknown setting `admin_jwt_scpoe`; did you mean `admin_jwt_scope`?',
    ]);
  });

  test('a misspelt key inside a role mapping gets the closest name', () => {
    expect(problemsOf(() => parse({ role_mappings: [{ role: 'a', internal_rol: 'team' }] }))).toContain(
      'unknown setting `internal_rol` in `role_mappings[0]`; did you mean `internal_role`?',
    );
  });

  test('a misspelt route group gets the closest group name', () => {
    expect(problemsOf(() => parse({ team_allowed_routes: ['openai_route'] }))).toEqual([
      'team_allowed_routes[0]: unknown route group `openai_route`; did you mean `openai_routes`?',
    ]);
  });

  test('a route with `*` anywhere but a final `/*` is refused', () => {
    expect(problemsOf(() => parse({ admin_allowed_routes: ['/key/*/info'] }))[0]).toMatch(
      /only allowed as a final `\/\*`/,
    );
  });

  test('a route with a dot segment is refused', () => {
    expect(problemsOf(() => parse({ admin_allowed_routes: ['/v1/../key/generate'] }))[0]).toMatch(
      /not a plain path/,
    );
  });

  test('an unknown internal role names the allowed ones', () => {
    expect(problemsOf(() => parse({ role_mappings: [{ role: 'a', internal_role: 'admin' }] }))[0]).toMatch(
      /^role_mappings\[0\]\.internal_role: .*"team".*"internal_user".*"proxy_admin"/,
    );
  });

  test('a scope mapping with a wildcard model is refused (wildcards are not supported)', () => {
    expect(problemsOf(() => parse({ scope_mappings: [{ scope: 's', models: ['gpt-*'] }] }))[0]).toMatch(
      /^scope_mappings\[0\]\.models\[0\]: wildcards are not supported/,
    );
  });

  test('custom_validate given as a module path explains that a function is expected', () => {
    expect(problemsOf(() => parse({ custom_validate: 'checks.validate' }))[0]).toMatch(
      /^custom_validate: expected a function/,
    );
  });

  test('a negative TTL is refused', () => {
    expect(problemsOf(() => parse({ public_key_ttl: -1 }))[0]).toMatch(/^public_key_ttl: /);
  });

  test('without any key URL, UserInfo or OAuth2 there is nothing to verify with', () => {
    expect(problemsOf(() => parseJwtSettings({}, {}))[0]).toMatch(/^public_key_url: no key set/);
  });

  test('a key URL that is not http(s) is refused', () => {
    expect(problemsOf(() => parseJwtSettings({ public_key_url: 'file:///etc/keys' }, {}))).toEqual([
      'public_key_url: expected an http(s) URL',
    ]);
  });

  test('oidc_userinfo_enabled needs oidc_userinfo_endpoint', () => {
    expect(problemsOf(() => parse({ oidc_userinfo_enabled: true }))).toEqual([
      'oidc_userinfo_endpoint: is required when oidc_userinfo_enabled is true',
    ]);
  });

  test('routing_overrides need a token info endpoint', () => {
    expect(
      problemsOf(() => parse({ routing_overrides: [{ iss: 'https://m2m.example', path: 'oauth2' }] }))[0],
    ).toMatch(/^oauth2_token_info_endpoint: is required when routing_overrides are set/);
  });

  test('a routing override without iss is refused', () => {
    expect(
      problemsOf(() =>
        parse({
          routing_overrides: [{ client_id: 'x', path: 'oauth2' }],
          oauth2_token_info_endpoint: 'https://t.example',
        }),
      ),
    ).toEqual(['routing_overrides[0].iss: is required']);
  });

  test('a role listed twice in role_permissions is refused', () => {
    expect(
      problemsOf(() =>
        parse({
          role_permissions: [
            { role: 'team', models: [] },
            { role: 'team', routes: [] },
          ],
        }),
      ),
    ).toEqual(['role_permissions[1].role: `team` is listed twice']);
  });
});
