import type { DeploymentCost } from '../cost/deployment-cost.js';
import type { ReasoningEffort, ThinkingParam } from './chat.js';
import type { ProviderName } from './provider.js';

/** The `svc_params` the router itself reads (CONTRACT 2.1). Times are in seconds. */
export interface RouterSvcParams {
  /** `<provider>/<model>`, e.g. `openai/gpt-4o`. */
  model: string;
  api_key?: string;
  api_base?: string;
  api_version?: string;
  rpm?: number;
  tpm?: number;
  weight?: number;
  order?: number;
  max_parallel_requests?: number;
  cooldown_time?: number;
  input_cost_per_token?: number;
  output_cost_per_token?: number;
  /** Dollars per prompt token read from the provider's cache. @default input_cost_per_token */
  cache_read_input_token_cost?: number;
  /** Dollars per prompt token written to the provider's cache. @default input_cost_per_token */
  cache_creation_input_token_cost?: number;
  region_name?: string;
  base_model?: string;
  vertex_project?: string;
  vertex_location?: string;
  thinking?: ThinkingParam;
  mock_response?: string;
  timeout?: number;
  stream_timeout?: number;
  first_token_timeout?: number;
  stream_total_timeout?: number;
  max_retries?: number;
  /**
   * With `enable_tag_filtering`, the request tags this deployment serves (`metadata.tags`); `default`
   * marks the deployments that serve untagged requests. Never sent upstream.
   */
  tags?: readonly string[];
}

/** Request fields a deployment may preset; the caller's request overrides each one. */
export interface RequestDefaultParams {
  temperature?: number;
  top_p?: number;
  /** Anthropic, Gemini and Bedrock models. */
  top_k?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  /**
   * The most tokens to generate, sent as the provider's own limit field (`max_tokens`; Gemini
   * `maxOutputTokens`, Bedrock `inferenceConfig.maxTokens`). `max_tokens` / `max_completion_tokens`
   * here win over it, and a request that sets its own limit wins over all three.
   */
  max_new_tokens?: number;
  stop?: string | string[];
  seed?: number;
  n?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  user?: string;
  response_format?: Record<string, unknown>;
  reasoning_effort?: ReasoningEffort;
  parallel_tool_calls?: boolean;
}

/** Provider settings the adapters read (each provider's page under docs/providers/ lists its own). */
export interface ProviderPassThroughParams {
  /** Azure: Microsoft Entra ID client credentials (with `client_id`, `client_secret`). */
  tenant_id?: string;
  client_id?: string;
  client_secret?: string;
  /** Azure: an Entra ID access token you manage, sent as `Authorization: Bearer`. */
  azure_ad_token?: string;
  /** Azure: @default 'https://login.microsoftonline.com' */
  azure_authority_host?: string;
  /** Azure: @default 'https://cognitiveservices.azure.com/.default' */
  azure_scope?: string;
  /** Bedrock: SigV4 credentials and region (else the `AWS_*` environment). */
  aws_access_key_id?: string;
  aws_secret_access_key?: string;
  aws_session_token?: string;
  aws_region_name?: string;
  /** Vertex AI: a service-account key as an object, as JSON text, or the path of a key file. */
  vertex_credentials?: string | Record<string, unknown>;
  /** OpenRouter: sent as `HTTP-Referer` and `X-Title`. */
  openrouter_site_url?: string;
  openrouter_app_name?: string;
  /** Accepted for compatibility with LiteLLM configs; not read by this version. */
  api_type?: string;
  organization?: string;
  azure_ad_token_provider?: unknown;
  aws_profile_name?: string;
  extra_headers?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * Provider call parameters of one deployment (CONTRACT 2.1): the router's own keys, request defaults and
 * the providers' known settings, all typed, so a typo (`wieght: 1`) is a type error. A key not listed
 * here still passes through to the provider adapter at run time; to type one, widen the deployment:
 * `DeploymentConfig<{ my_key: string }>`.
 */
export interface SvcParams extends RouterSvcParams, RequestDefaultParams, ProviderPassThroughParams {}

/** Optional metadata of a deployment. */
export interface ModelInfo {
  id?: string;
  base_model?: string;
  supports_reasoning?: boolean;
  /**
   * Whether it continues a trailing assistant message (assistant prefill), over the catalog's
   * (`supportsAssistantPrefill`): where `stream_resume` may continue a broken stream.
   */
  supports_assistant_prefill?: boolean;
  mode?: 'chat' | 'embedding' | 'completion' | 'image_generation' | string;
  /** Dollars per prompt token, over the catalog (`svc_params.input_cost_per_token` wins over it). */
  input_cost_per_token?: number;
  /** Dollars per completion token, over the catalog (`svc_params.output_cost_per_token` wins over it). */
  output_cost_per_token?: number;
  /** Dollars per prompt token read from the provider's cache. @default input_cost_per_token */
  cache_read_input_token_cost?: number;
  /** Dollars per prompt token written to the provider's cache. @default input_cost_per_token */
  cache_creation_input_token_cost?: number;
  /** The context window, over the catalog's: what pre-call checks and getModelGroupInfo use. */
  max_input_tokens?: number;
  /**
   * Calls charged to a budget (proxy keys, teams, ... with `max_budget`) may use this deployment though
   * it has no price (its calls cost 0). Without it they are refused with 400 `model_unpriced`.
   * @default false
   */
  allow_unpriced?: boolean;
  /**
   * Access groups this deployment belongs to: a proxy key's or team's `models` naming one may call
   * every model group that has a deployment in it (`Router.getAccessGroups()`).
   */
  access_groups?: readonly string[];
  [extra: string]: unknown;
}

/**
 * One entry of the model list, as users write it. `Extra` types `svc_params` keys this version does
 * not know (a provider setting passed through to the adapter), the escape hatch from typo checking.
 *
 * @example
 * const list: DeploymentConfig<{ my_gateway_flag: boolean }>[] = [
 *   { model_name: 'gpt', svc_params: { model: 'openai/gpt-4o', my_gateway_flag: true } },
 * ];
 * new Router(list);
 */
export interface DeploymentConfig<Extra extends object = Record<never, never>> {
  model_name: string;
  svc_params: SvcParams & Extra;
  model_info?: ModelInfo;
}

/** One entry of `router.modelList`: the user's entry with `model_info.id` always set. */
export interface DeploymentEntry extends DeploymentConfig {
  model_info: ModelInfo & { id: string };
}

/**
 * A deployment as the router holds it: the user's entry plus the facts derived from it once, at
 * construction, so that nothing on the hot path re-derives them.
 */
export interface Deployment {
  /** The `model_id`: `model_info.id`, else a stable hash of `svc_params`. */
  readonly id: string;
  /** The model group (`model_name`). */
  readonly modelName: string;
  readonly provider: ProviderName;
  /** The model name the provider sees (the part after the prefix). */
  readonly providerModel: string;
  /** `svc_params` with `default_svc_params` merged under and `os.environ/` references resolved. */
  readonly params: Readonly<SvcParams>;
  readonly info: Readonly<ModelInfo>;
  /** The element of `router.modelList` this deployment was built from. */
  readonly entry: DeploymentEntry;
  /** Its prices, context window and capabilities, resolved once (own settings > `model_cost_map` > catalog). */
  readonly cost: DeploymentCost;
}
