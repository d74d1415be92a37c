import { z } from 'zod';
import { seconds } from '../config/time-bounds.js';
import { routeEntryProblem } from './route-matcher.js';

/** `custom_validate`: receives the verified payload; `false`, a throw or a rejection refuses the token. */
export type CustomValidate = (payload: Readonly<Record<string, unknown>>) => unknown;

const field = z.string().min(1);
const isStringOrList = (v: unknown): v is string | string[] =>
  (typeof v === 'string' && v.length > 0) ||
  (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.length > 0));
const stringOrList = z.custom<string | string[]>(isStringOrList, {
  error: (issue) =>
    issue.input === undefined ? 'is required' : 'expected a non-empty string or list of strings',
});

const routeList = z.array(z.string()).superRefine((entries, ctx) => {
  entries.forEach((entry, i) => {
    const problem = routeEntryProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', path: [i], message: problem });
  });
});

export const INTERNAL_ROLES = ['team', 'internal_user', 'proxy_admin'] as const;
export const USER_ROLES = ['proxy_admin', 'internal_user', 'internal_user_view_only'] as const;

const customValidate = z.custom<CustomValidate>((v) => typeof v === 'function', {
  message:
    'expected a function of the token payload (the proxy loads a `module.function` path from the config directory; a custom server passes the function itself)',
});

const httpUrl = z.string().refine(
  (v) => {
    try {
      const { protocol } = new URL(v);
      return protocol === 'https:' || protocol === 'http:';
    } catch {
      return false;
    }
  },
  { message: 'expected an http(s) URL' },
);

/**
 * The `svc_jwtauth` settings (spec 5.2), plus the values a server reads from its environment or
 * `general_settings` (`public_key_url` for `JWT_PUBLIC_KEY_URL`, `audience` for `JWT_AUDIENCE`,
 * `enable_oauth2_auth`, the OAuth2 token-info endpoint and field names) and three bounds of this
 * implementation (`public_key_refetch_cooldown`, `identity_provider_timeout`, `clock_tolerance`).
 * Times are seconds (fractions allowed).
 */
export const jwtSettingsSchema = z.strictObject({
  public_key_url: stringOrList.optional(),
  audience: stringOrList.optional(),
  public_key_ttl: seconds.default(600),
  public_key_refetch_cooldown: seconds.default(30),
  identity_provider_timeout: seconds.positive().default(5),
  clock_tolerance: z.number().nonnegative().max(300).default(5),

  admin_jwt_scope: z.string().min(1).default('svc_proxy_admin'),
  admin_allowed_routes: routeList.default([
    'management_routes',
    'spend_tracking_routes',
    'global_spend_tracking_routes',
    'info_routes',
  ]),
  team_allowed_routes: routeList.default(['openai_routes', 'info_routes']),
  public_allowed_routes: routeList.default(['public_routes']),

  team_id_jwt_field: field.nullable().default('client_id'),
  team_ids_jwt_field: field.optional(),
  team_alias_jwt_field: field.optional(),
  user_id_jwt_field: field.optional(),
  user_email_jwt_field: field.optional(),
  user_roles_jwt_field: field.optional(),
  org_id_jwt_field: field.optional(),
  org_alias_jwt_field: field.optional(),
  end_user_id_jwt_field: field.optional(),
  object_id_jwt_field: field.optional(),
  roles_jwt_field: field.optional(),

  user_id_upsert: z.boolean().default(false),
  team_id_upsert: z.boolean().default(false),
  user_allowed_email_domain: z.string().min(1).optional(),
  enforce_team_based_model_access: z.boolean().default(false),
  enforce_rbac: z.boolean().default(false),
  enforce_scope_based_access: z.boolean().default(false),

  role_mappings: z
    .array(z.strictObject({ role: z.string().min(1), internal_role: z.enum(INTERNAL_ROLES) }))
    .default([]),
  role_permissions: z
    .array(
      z.strictObject({
        role: z.enum(INTERNAL_ROLES),
        models: z.array(z.string().min(1)).optional(),
        routes: routeList.optional(),
      }),
    )
    .default([]),
  scope_mappings: z
    .array(
      z.strictObject({
        scope: z.string().min(1),
        models: z.array(
          z
            .string()
            .min(1)
            .refine((m) => !m.includes('*'), {
              message: 'wildcards are not supported in scope_mappings; list each model_name',
            }),
        ),
      }),
    )
    .default([]),

  custom_validate: customValidate.optional(),

  virtual_key_claim_field: field.optional(),
  virtual_key_mapping_cache_ttl: seconds.default(300),

  oidc_userinfo_enabled: z.boolean().default(false),
  oidc_userinfo_endpoint: httpUrl.optional(),
  oidc_userinfo_cache_ttl: seconds.default(300),

  sync_user_role_and_teams: z.boolean().default(false),
  jwt_litellm_role_map: z
    .array(z.strictObject({ jwt_role: z.string().min(1), litellm_role: z.enum(USER_ROLES) }))
    .default([]),

  enable_oauth2_auth: z.boolean().default(false),
  routing_overrides: z
    .array(
      z.strictObject({
        iss: stringOrList,
        client_id: stringOrList.optional(),
        scope: stringOrList.optional(),
        aud: stringOrList.optional(),
        path: z.literal('oauth2'),
      }),
    )
    .default([]),
  oauth2_token_info_endpoint: httpUrl.optional(),
  oauth_user_id_field_name: field.optional(),
  oauth_user_role_field_name: field.optional(),
  oauth_user_team_id_field_name: field.optional(),
});

/** JWT auth settings as written (every key optional). */
export type JwtAuthSettings = z.input<typeof jwtSettingsSchema>;

/** JWT auth settings after validation: defaults filled in, lists normalised. */
export type ResolvedJwtSettings = Omit<
  z.output<typeof jwtSettingsSchema>,
  | 'public_key_url'
  | 'audience'
  | 'oauth_user_id_field_name'
  | 'oauth_user_role_field_name'
  | 'oauth_user_team_id_field_name'
> & {
  /** Every JWKS or OpenID discovery URL, in order. */
  public_key_urls: readonly string[];
  /** Accepted audiences; undefined when the audience is not checked. */
  audiences: readonly string[] | undefined;
  /** OAuth2 token-info field with the user id; default `sub`. */
  oauth_user_id_field_name: string;
  /** OAuth2 token-info field with the user role; default `role`. */
  oauth_user_role_field_name: string;
  /** OAuth2 token-info field with the team id; default `team_id`. */
  oauth_user_team_id_field_name: string;
};

/** Every setting name, for "did you mean" messages. */
export const JWT_SETTING_NAMES = Object.keys(jwtSettingsSchema.shape);
