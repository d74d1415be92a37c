import { parseWithEnv } from '../config/parse-with-env.js';
import { ConfigError } from '../errors/config-error.js';
import {
  JWT_SETTING_NAMES,
  type JwtAuthSettings,
  jwtSettingsSchema,
  type ResolvedJwtSettings,
} from './settings-schema.js';

function list(value: string | readonly string[] | undefined, splitCommas: boolean): string[] {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? (splitCommas ? value.split(',') : [value]) : value;
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Validates JWT auth settings (the `svc_jwtauth` table), filling defaults and resolving `os.environ/NAME`
 * references. Values not given fall back to the environment: `JWT_PUBLIC_KEY_URL` (comma-separated),
 * `JWT_AUDIENCE`, `OAUTH_TOKEN_INFO_ENDPOINT`, `OAUTH_USER_ID_FIELD_NAME`, `OAUTH_USER_ROLE_FIELD_NAME`,
 * `OAUTH_USER_TEAM_ID_FIELD_NAME`. Throws ConfigError naming every bad field; an unknown key gets the
 * closest valid one ("unknown setting `admin_jwt_scpoe`; did you mean `admin_jwt_scope`?").
 */
export function parseJwtSettings(
  input: JwtAuthSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedJwtSettings {
  const { data } = parseWithEnv(jwtSettingsSchema, input, {
    what: 'JWT auth settings',
    names: JWT_SETTING_NAMES,
    env,
    keepAsIs: (path: readonly PropertyKey[]) => path.length === 1 && path[0] === 'custom_validate',
  });
  const { public_key_url, audience, ...s } = data;

  const fromEnv = (name: string) => (env[name] && env[name]!.trim() !== '' ? env[name] : undefined);
  const public_key_urls = list(public_key_url ?? fromEnv('JWT_PUBLIC_KEY_URL'), true);
  const audiences = list(audience ?? fromEnv('JWT_AUDIENCE'), false);
  const settings: ResolvedJwtSettings = {
    ...s,
    public_key_urls,
    audiences: audiences.length > 0 ? audiences : undefined,
    oauth2_token_info_endpoint: s.oauth2_token_info_endpoint ?? fromEnv('OAUTH_TOKEN_INFO_ENDPOINT'),
    oauth_user_id_field_name: s.oauth_user_id_field_name ?? fromEnv('OAUTH_USER_ID_FIELD_NAME') ?? 'sub',
    oauth_user_role_field_name:
      s.oauth_user_role_field_name ?? fromEnv('OAUTH_USER_ROLE_FIELD_NAME') ?? 'role',
    oauth_user_team_id_field_name:
      s.oauth_user_team_id_field_name ?? fromEnv('OAUTH_USER_TEAM_ID_FIELD_NAME') ?? 'team_id',
  };
  const more = crossFieldProblems(settings);
  if (more.length > 0) throw new ConfigError('JWT auth settings', more);
  return settings;
}

function crossFieldProblems(s: ResolvedJwtSettings): string[] {
  const problems: string[] = [];
  s.public_key_urls.forEach((url, i) => {
    if (!isHttpUrl(url)) {
      problems.push(`public_key_url${s.public_key_urls.length > 1 ? `[${i}]` : ''}: expected an http(s) URL`);
    }
  });
  const oauth2 = s.enable_oauth2_auth || s.routing_overrides.length > 0;
  if (s.public_key_urls.length === 0 && !s.oidc_userinfo_enabled && !oauth2) {
    problems.push(
      "public_key_url: no key set to verify tokens with; set JWT_PUBLIC_KEY_URL (or `public_key_url`) to the identity provider's JWKS or OpenID discovery URL",
    );
  }
  if (s.oidc_userinfo_enabled && !s.oidc_userinfo_endpoint) {
    problems.push('oidc_userinfo_endpoint: is required when oidc_userinfo_enabled is true');
  }
  if (oauth2 && !s.oauth2_token_info_endpoint) {
    problems.push(
      `oauth2_token_info_endpoint: is required when ${s.enable_oauth2_auth ? 'enable_oauth2_auth is true' : 'routing_overrides are set'} (or set OAUTH_TOKEN_INFO_ENDPOINT)`,
    );
  } else if (s.oauth2_token_info_endpoint && !isHttpUrl(s.oauth2_token_info_endpoint)) {
    problems.push('oauth2_token_info_endpoint: expected an http(s) URL');
  }
  const seen = new Set<string>();
  s.role_permissions.forEach((p, i) => {
    if (seen.has(p.role)) problems.push(`role_permissions[${i}].role: \`${p.role}\` is listed twice`);
    seen.add(p.role);
  });
  return problems;
}
