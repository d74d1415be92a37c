import { ConfigError } from '@svc/router';
import type { JwtAuthDeps, JwtAuthSettings } from '@svc/router/jwt';
import { createJwtAuth, loadCustomValidate, parseJwtSettings } from '@svc/router/jwt';
import type { JwtGate } from '../auth/jwt-caller.js';
import type { GeneralSettings } from '../config/general-settings.js';

/** JWT auth of a proxy, validated at start: the settings to build it from and how bearers are routed. */
export interface ProxyJwtSettings {
  /** `svc_jwtauth` with `custom_validate` loaded and the `general_settings` OAuth2 values over it. */
  settings: JwtAuthSettings;
  /** Opaque bearer values go to the JWT module too (OAuth2 global mode, UserInfo). */
  opaqueTokens: boolean;
  /** What `JWT_PUBLIC_KEY_URL`, `JWT_AUDIENCE` and the OAuth2 variables are read from. */
  env: NodeJS.ProcessEnv;
}

const SECTION = 'general_settings.svc_jwtauth';

/** A JWT settings problem placed under `general_settings.svc_jwtauth` ("x: reason" or a sentence). */
function underSection(problem: string): string {
  return /^[A-Za-z_][\w.[\]]*: /.test(problem) ? `${SECTION}.${problem}` : `${SECTION}: ${problem}`;
}

function collect(problems: string[], run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems.map(underSection));
  }
}

/**
 * Validates the proxy's JWT auth settings (CONTRACT 4, 5.6): with `enable_jwt_auth` (or
 * `enable_oauth2_auth`), `svc_jwtauth` is checked by the JWT module's own rules, a `custom_validate:
 * "module.function"` is loaded from `configDir`, and `JWT_PUBLIC_KEY_URL` / `JWT_AUDIENCE` come from
 * `env` (the environment with the config's `environment_variables` over it). Undefined when JWT auth is
 * off. Throws one ConfigError for `what` (the config file) listing every problem.
 */
export async function resolveProxyJwtSettings(
  general: GeneralSettings,
  env: NodeJS.ProcessEnv,
  configDir: string,
  what: string,
): Promise<ProxyJwtSettings | undefined> {
  if (!general.enable_jwt_auth && !general.enable_oauth2_auth) return undefined;
  const problems: string[] = [];
  const { custom_validate, ...rest } = (general.svc_jwtauth ?? {}) as JwtAuthSettings & {
    custom_validate?: unknown;
  };
  const settings: JwtAuthSettings = {
    ...rest,
    ...(general.enable_oauth2_auth && { enable_oauth2_auth: true }),
    ...(general.oauth2_token_info_endpoint !== undefined && {
      oauth2_token_info_endpoint: general.oauth2_token_info_endpoint,
    }),
  };
  if (typeof custom_validate === 'string') {
    try {
      settings.custom_validate = await loadCustomValidate(custom_validate, configDir);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems.map(underSection));
    }
  } else if (custom_validate !== undefined) {
    problems.push(
      `${SECTION}.custom_validate: expected "module.function" (a module next to the config file)`,
    );
  }
  let opaqueTokens = false;
  collect(problems, () => {
    const parsed = parseJwtSettings(settings, env);
    opaqueTokens = parsed.enable_oauth2_auth || parsed.oidc_userinfo_enabled;
  });
  if (problems.length > 0) throw new ConfigError(what, problems);
  return { settings, opaqueTokens, env };
}

/** The JWT side of the proxy's authentication over a directory (the proxy database's, in production). */
export function jwtGate(jwt: ProxyJwtSettings, directory: JwtAuthDeps): JwtGate {
  return {
    auth: createJwtAuth(jwt.settings, directory, { env: jwt.env }),
    opaqueTokens: jwt.opaqueTokens,
  };
}
