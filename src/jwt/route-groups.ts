/**
 * The route groups usable in `admin_allowed_routes`, `team_allowed_routes`, `public_allowed_routes` and
 * `role_permissions[].routes` (spec 4.3), as data. A route is an exact path, a path with `{name}`
 * placeholders (one path segment, or the part of a segment before a `:verb` suffix), or a prefix ending
 * in `/*` (the prefix itself and everything under it). Matching is case-sensitive, on the normalised
 * path (see `normalizePath`).
 *
 * JWT-to-key mapping endpoints (`/jwt/key/mapping/*`) are in no group: they need the master key
 * (spec 5.7), never a token.
 */

const OPENAI_ROUTES = [
  '/v1/chat/completions',
  '/chat/completions',
  '/v1/completions',
  '/completions',
  '/v1/embeddings',
  '/embeddings',
  '/v1/images/generations',
  '/images/generations',
  '/v1/images/edits',
  '/images/edits',
  '/v1/audio/speech',
  '/audio/speech',
  '/v1/audio/transcriptions',
  '/audio/transcriptions',
  '/v1/moderations',
  '/moderations',
  '/v1/models',
  '/models',
  '/v1/models/{model_name}',
  '/models/{model_name}',
  '/v1/responses',
  '/responses',
  '/v1/responses/{response_id}',
  '/v1/responses/{response_id}/input_items',
  '/responses/{response_id}',
  '/responses/{response_id}/input_items',
  '/v1/batches',
  '/v1/batches/{batch_id}',
  '/v1/files',
  '/v1/files/{file_id}',
  '/v1/files/{file_id}/content',
  '/openai/deployments/{model_name}/chat/completions',
  '/openai/deployments/{model_name}/completions',
  '/openai/deployments/{model_name}/embeddings',
  '/engines/{model_name}/chat/completions',
  '/engines/{model_name}/completions',
  '/engines/{model_name}/embeddings',
] as const;

const ANTHROPIC_ROUTES = [
  '/v1/messages',
  '/v1/messages/count_tokens',
  '/v1/skills',
  '/v1/skills/{skill_id}',
] as const;

const GOOGLE_ROUTES = [
  '/v1beta/models/{model_name}:generateContent',
  '/v1beta/models/{model_name}:streamGenerateContent',
  '/v1beta/models/{model_name}:countTokens',
  '/v1beta/models/{model_name}:embedContent',
  '/models/{model_name}:generateContent',
  '/models/{model_name}:streamGenerateContent',
  '/models/{model_name}:countTokens',
] as const;

const MAPPED_PASS_THROUGH_ROUTES = [
  '/anthropic/*',
  '/vertex-ai/*',
  '/vertex_ai/*',
  '/bedrock/*',
  '/gemini/*',
  '/azure/*',
  '/openai/*',
  '/cohere/*',
  '/mistral/*',
] as const;

const PASSTHROUGH_ROUTES_WILDCARD = [
  ...MAPPED_PASS_THROUGH_ROUTES,
  '/vllm/*',
  '/deepseek/*',
  '/xai/*',
] as const;

const APPLY_GUARDRAIL_ROUTES = ['/guardrails/apply_guardrail', '/apply_guardrail'] as const;

const MCP_ROUTES = ['/mcp/tools', '/mcp/tools/list', '/mcp/tools/call'] as const;

/** Model calls of this service that are neither OpenAI, Anthropic nor Google shaped. */
const NATIVE_ROUTES = ['/rerank', '/v1/rerank', '/v2/rerank', '/utils/token_counter'] as const;

const INFO_ROUTES = [
  '/key/info',
  '/team/info',
  '/user/info',
  '/organization/info',
  '/model/info',
  '/v1/model/info',
  '/model_group/info',
  '/v1/models',
  '/models',
] as const;

const MANAGEMENT_ROUTES = [
  '/key/generate',
  '/key/update',
  '/key/delete',
  '/key/regenerate',
  '/key/list',
  '/team/new',
  '/team/update',
  '/team/delete',
  '/team/block',
  '/team/unblock',
  '/team/list',
  '/team/member_add',
  '/team/member_delete',
  '/user/new',
  '/user/update',
  '/user/delete',
  '/user/list',
  '/organization/new',
  '/organization/update',
  '/organization/delete',
  '/model/new',
  '/model/update',
  '/model/delete',
  '/config/update',
  '/deployment/health',
] as const;

const SPEND_TRACKING_ROUTES = [
  '/spend/logs',
  '/spend/keys',
  '/spend/users',
  '/spend/tags',
  '/spend/calculate',
  '/spend/report',
] as const;

const GLOBAL_SPEND_TRACKING_ROUTES = [
  '/global/spend',
  '/global/spend/logs',
  '/global/spend/keys',
  '/global/spend/teams',
  '/global/spend/models',
  '/global/spend/end_users',
  '/global/spend/report',
] as const;

const PUBLIC_ROUTES = [
  '/',
  '/routes',
  '/health',
  '/health/readiness',
  '/.well-known/litellm-ui-config',
] as const;

const LLM_API_ROUTES = [
  ...OPENAI_ROUTES,
  ...ANTHROPIC_ROUTES,
  ...GOOGLE_ROUTES,
  ...MAPPED_PASS_THROUGH_ROUTES,
  ...PASSTHROUGH_ROUTES_WILDCARD,
  ...APPLY_GUARDRAIL_ROUTES,
  ...MCP_ROUTES,
  ...NATIVE_ROUTES,
];

/**
 * Every route group by name. `llm_api_routes` is the union of the model-call groups.
 *
 * @example ROUTE_GROUPS.anthropic_routes // => ['/v1/messages', '/v1/messages/count_tokens', ...]
 */
export const ROUTE_GROUPS = Object.freeze({
  openai_routes: Object.freeze([...OPENAI_ROUTES]),
  anthropic_routes: Object.freeze([...ANTHROPIC_ROUTES]),
  google_routes: Object.freeze([...GOOGLE_ROUTES]),
  mapped_pass_through_routes: Object.freeze([...MAPPED_PASS_THROUGH_ROUTES]),
  passthrough_routes_wildcard: Object.freeze([...PASSTHROUGH_ROUTES_WILDCARD]),
  apply_guardrail_routes: Object.freeze([...APPLY_GUARDRAIL_ROUTES]),
  mcp_routes: Object.freeze([...MCP_ROUTES]),
  native_routes: Object.freeze([...NATIVE_ROUTES]),
  llm_api_routes: Object.freeze([...new Set(LLM_API_ROUTES)]),
  info_routes: Object.freeze([...INFO_ROUTES]),
  management_routes: Object.freeze([...MANAGEMENT_ROUTES]),
  spend_tracking_routes: Object.freeze([...SPEND_TRACKING_ROUTES]),
  global_spend_tracking_routes: Object.freeze([...GLOBAL_SPEND_TRACKING_ROUTES]),
  public_routes: Object.freeze([...PUBLIC_ROUTES]),
}) satisfies Readonly<Record<string, readonly string[]>>;

/** A route group's name. */
export type RouteGroupName = keyof typeof ROUTE_GROUPS;

/** Every group name, for "did you mean" messages. */
export const ROUTE_GROUP_NAMES = Object.keys(ROUTE_GROUPS) as RouteGroupName[];

/** Whether `name` is a route group's name (not an explicit path). */
export function isRouteGroupName(name: string): name is RouteGroupName {
  return Object.hasOwn(ROUTE_GROUPS, name);
}
