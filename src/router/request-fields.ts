/** Request fields the router reads and never forwards upstream (CONTRACT 5.1). */
export const ROUTER_ONLY_FIELDS: ReadonlySet<string> = new Set([
  // the router's own controls
  'drop_params',
  'metadata',
  'mock_response',
  'mock_testing_rate_limit_error',
  'mock_testing_fallbacks',
  'cache',
  'caching',
  'num_retries',
  'max_retries',
  'fallbacks',
  'context_window_fallbacks',
  'content_policy_fallbacks',
  'allowed_model_region',
  'timeout',
  'stream_timeout',
  'first_token_timeout',
  // what LiteLLM clients send to a router and never to a provider
  'specific_deployment',
  'model_list',
  'tags',
  'litellm_metadata',
  'litellm_call_id',
  'litellm_logging_obj',
  'proxy_server_request',
  'secret_fields',
  'input_cost_per_token',
  'output_cost_per_token',
  'base_model',
  'api_key',
  'api_base',
  'api_version',
  'custom_llm_provider',
]);

/**
 * The request without router-only fields: what an adapter may translate and send. Returns the request
 * itself when it has none (adapters never mutate it), so the common call makes no copy.
 */
export function providerBody<T extends object>(request: T): T {
  let clean = true;
  for (const key in request) {
    if (ROUTER_ONLY_FIELDS.has(key)) {
      clean = false;
      break;
    }
  }
  if (clean) return request;
  const body: Record<string, unknown> = {};
  for (const key in request) {
    if (!ROUTER_ONLY_FIELDS.has(key)) body[key] = request[key];
  }
  return body as T;
}
