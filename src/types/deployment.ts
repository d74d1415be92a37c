import type { ThinkingParam } from './chat.js';
import type { ProviderName } from './provider.js';

/**
 * Provider call parameters of one deployment (CONTRACT 2.1). Times are in seconds. Keys not named here
 * pass through to the provider adapter (`tenant_id`, `aws_region_name`, ...).
 */
export interface SvcParams {
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
  [passThrough: string]: unknown;
}

/** Optional metadata of a deployment. */
export interface ModelInfo {
  id?: string;
  base_model?: string;
  supports_reasoning?: boolean;
  mode?: 'chat' | 'embedding' | 'completion' | 'image_generation' | string;
  [extra: string]: unknown;
}

/** One entry of the model list, as users write it. */
export interface DeploymentConfig {
  model_name: string;
  svc_params: SvcParams;
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
}
