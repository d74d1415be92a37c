import { isCatalogProvider, type ModelRef, refOf } from './catalog-ids.js';
import type { UserCostMap } from './cost-map-file.js';
import { entryPrices, modelFacts, type PriceSource } from './model-facts.js';
import { type TokenPrices, withSearchPrice } from './token-prices.js';
import { ownUnitPrices, type UnitPrices } from './unit-prices.js';

/** The parts of a deployment its cost facts follow from. */
export interface CostedDeployment {
  readonly provider: string;
  readonly providerModel: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly info: Readonly<Record<string, unknown>>;
}

/**
 * What a deployment costs and can do, resolved once when the router's config is built (never on a
 * call): its prices (its own, else the `model_cost_map` file's, else the catalog's), context window and
 * capabilities.
 */
export interface DeploymentCost {
  /** Undefined when no price is known. */
  readonly prices: TokenPrices | undefined;
  readonly priceSource: PriceSource | undefined;
  /** Per second of audio, per character spoken, per rerank search: its own, else the catalog's. */
  readonly unitPrices: UnitPrices | undefined;
  /** Whether it has a price (per token or per unit): an unpriced deployment's calls cost 0. */
  readonly priced: boolean;
  /** `model_info.allow_unpriced: true`: calls charged to a budget may use it though it has no price. */
  readonly allowUnpriced: boolean;
  /** Whether a call charged to a budget may use it: priced, or allowed unpriced. */
  readonly billable: boolean;
  /** `model_info.max_input_tokens`, else the `model_cost_map` file's, else the catalog's. */
  readonly maxInputTokens: number | undefined;
  /** `model_info.supports_reasoning`, else the `model_cost_map` file's, else the catalog's. */
  readonly supportsReasoning: boolean;
  /**
   * `model_info.supports_assistant_prefill`, else the `model_cost_map` file's, else the model family's
   * (`supportsAssistantPrefill`): where `stream_resume` may continue a broken stream.
   */
  readonly supportsAssistantPrefill: boolean;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/**
 * The model the catalogs are asked about for a deployment: its `base_model` (`svc_params`, then
 * `model_info`; with or without a provider prefix), else its own provider and model.
 */
export function costRef(deployment: CostedDeployment): ModelRef {
  const base = deployment.params.base_model ?? deployment.info.base_model;
  if (typeof base === 'string' && base !== '') return refOf(base, isCatalogProvider, deployment.provider);
  return { provider: deployment.provider, model: deployment.providerModel };
}

/** Own prices: `svc_params`' when it sets an input or output price, else `model_info`'s. */
function ownPrices(deployment: CostedDeployment): TokenPrices | undefined {
  for (const own of [deployment.params, deployment.info]) {
    const prices = entryPrices({
      input_cost_per_token: num(own.input_cost_per_token),
      output_cost_per_token: num(own.output_cost_per_token),
      cache_read_input_token_cost: num(own.cache_read_input_token_cost),
      cache_creation_input_token_cost: num(own.cache_creation_input_token_cost),
    });
    if (prices) return prices;
  }
  return undefined;
}

/** Resolves a deployment's cost facts: its own settings > the `model_cost_map` file > the catalog. */
export function deploymentCost(deployment: CostedDeployment, userMap?: UserCostMap): DeploymentCost {
  const facts = modelFacts(costRef(deployment), userMap);
  const own = ownPrices(deployment);
  // a deployment's own token prices keep the catalog's price per web search (the provider's)
  const prices = own ? withSearchPrice(own, facts.prices) : facts.prices;
  const unitPrices = ownUnitPrices(deployment.params) ?? ownUnitPrices(deployment.info) ?? facts.unitPrices;
  const priced = prices !== undefined || unitPrices !== undefined;
  const allowUnpriced = deployment.info.allow_unpriced === true;
  return Object.freeze({
    prices,
    unitPrices,
    priceSource: own ? 'deployment' : facts.priceSource,
    priced,
    allowUnpriced,
    billable: priced || allowUnpriced,
    maxInputTokens: num(deployment.info.max_input_tokens) ?? facts.maxInputTokens,
    supportsReasoning: bool(deployment.info.supports_reasoning) ?? facts.supportsReasoning,
    supportsAssistantPrefill:
      bool(deployment.info.supports_assistant_prefill) ?? facts.supportsAssistantPrefill,
  });
}
