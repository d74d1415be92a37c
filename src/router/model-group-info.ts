import { contextWindowOf } from '../checks/context-window.js';
import type { ProviderName } from '../types/index.js';
import type { ModelGroup } from './deployment-registry.js';

/** One entry of `getModelGroupInfo()` (CONTRACT 5.3). */
export interface ModelGroupInfo {
  model_group: string;
  providers: ProviderName[];
  /** `model_info.mode`, else `chat`. */
  mode: string;
  supports_reasoning: boolean;
  /** The smallest context window among the group's deployments; null when none is known. */
  max_input_tokens: number | null;
  input_cost_per_token: number | null;
  output_cost_per_token: number | null;
}

/** Summarises a model group for `/model_group/info`. */
export function modelGroupInfo(group: ModelGroup): ModelGroupInfo {
  const providers = new Set<ProviderName>();
  let mode: string | undefined;
  let supportsReasoning = false;
  let maxInput: number | null = null;
  let prices: { input: number; output: number } | undefined;
  for (const { deployment } of group.endpoints) {
    providers.add(deployment.provider);
    mode ??= deployment.info.mode;
    supportsReasoning ||= deployment.cost.supportsReasoning;
    const window = contextWindowOf(deployment);
    if (window !== undefined) maxInput = maxInput === null ? window : Math.min(maxInput, window);
    prices ??= deployment.cost.prices;
  }
  return {
    model_group: group.name,
    providers: [...providers],
    mode: mode ?? 'chat',
    supports_reasoning: supportsReasoning,
    max_input_tokens: maxInput,
    input_cost_per_token: prices?.input ?? null,
    output_cost_per_token: prices?.output ?? null,
  };
}
