import { createRequire } from 'node:module';
import type * as GenaiPrices from '@pydantic/genai-prices';
import { bedrockId, GENAI_PROVIDER, type ModelRef, vendorOf } from './catalog-ids.js';
import { type PriceSet, perToken, type TokenPrices, withSearchPrice } from './token-prices.js';
import { catalogUnitPrices, type UnitPrices } from './unit-prices.js';

/** What genai-prices knows of a model. */
export interface GenaiEntry {
  readonly prices: TokenPrices | undefined;
  readonly maxInputTokens: number | undefined;
  /** `<genai provider>:<model id>`, the entry that matched. */
  readonly id: string;
  /** The provider whose entry matched, as this project names it (`gemini` for genai-prices' `google`). */
  readonly provider: string;
  /** Whether the entry has its own cache prices (else they are the input price). */
  readonly cachePriced: boolean;
  /** Audio by the second, rerank by the search; undefined when it prices neither. */
  readonly unitPrices?: UnitPrices | undefined;
}

type Genai = typeof GenaiPrices;
type ModelPrice = GenaiPrices.ModelPrice;

// Loaded on the first lookup (a router's construction), synchronously, from the package's CommonJS
// build: about half a megabyte of data that a process which never prices a model never parses.
let genai: Genai | undefined;
const load = (): Genai => {
  genai ??= createRequire(import.meta.url)('@pydantic/genai-prices') as Genai;
  return genai;
};

const NO_USAGE = Object.freeze({});

/**
 * genai-prices' entry for a model served by a provider, matched by its own rules (dated snapshots,
 * Bedrock regions, Vertex `@` versions, Azure falling back to OpenAI), else by the vendor behind it
 * (OpenRouter's `x-ai/grok-4` finds xAI's `grok-4`). Undefined when neither has one.
 */
export function genaiEntry(ref: ModelRef, at: Date): GenaiEntry | undefined {
  const own = matchOf(ref, at);
  if (!own) return viaVendor(ref, at);
  if (own.cachePriced && own.maxInputTokens !== undefined && own.prices?.webSearch !== undefined) return own;
  const vendor = viaVendor(ref, at);
  return vendor ? withVendorFacts(own, vendor) : own;
}

/**
 * An entry that lacks cache prices or a context window (OpenRouter lists many models without them)
 * takes the vendor's: the context window always, the cache prices when its list price is the vendor's
 * (OpenRouter bills a vendor's cache at the vendor's cache prices), and the vendor's price per web
 * search when it has none (Vertex AI bills Claude's searches at Anthropic's).
 */
function withVendorFacts(own: GenaiEntry, vendor: GenaiEntry): GenaiEntry {
  const maxInputTokens = own.maxInputTokens ?? vendor.maxInputTokens;
  const p = withSearchPrice(own.prices, vendor.prices);
  const v = vendor.prices;
  const samePrice = p && v && !p.tiers && p.input === v.input && p.output === v.output;
  if (own.cachePriced || !vendor.cachePriced || !samePrice) return { ...own, prices: p, maxInputTokens };
  const prices = { ...p, cacheRead: v.cacheRead, cacheWrite: v.cacheWrite };
  return { ...own, maxInputTokens, prices, cachePriced: true };
}

function viaVendor(ref: ModelRef, at: Date): GenaiEntry | undefined {
  const vendor = vendorOf(ref);
  return vendor ? matchOf(vendor, at) : undefined;
}

// genai-prices' provider ids as this project's provider names (`google` is `gemini`, listed first)
const OUR_NAME = new Map<string, string>();
for (const [ours, theirs] of Object.entries(GENAI_PROVIDER))
  if (!OUR_NAME.has(theirs)) OUR_NAME.set(theirs, ours);

function matchOf(ref: ModelRef, at: Date): GenaiEntry | undefined {
  // no provider (a bare model id): genai-prices recognises the provider by the model's name
  const providerId = ref.provider === '' ? undefined : GENAI_PROVIDER[ref.provider];
  if (providerId === undefined && ref.provider !== '') return undefined;
  const id = ref.provider === 'bedrock' ? bedrockId(ref.model) : ref.model;
  let result: GenaiPrices.PriceCalculationResult;
  try {
    result = load().calcPrice(NO_USAGE, id, { ...(providerId && { providerId }), timestamp: at });
  } catch {
    return undefined; // an entry the package itself cannot price is no price
  }
  if (!result) return undefined;
  const { model, provider } = result;
  const price = pricesAt(model, at);
  return {
    prices: tokenPrices(price),
    unitPrices: catalogUnitPrices(price as Record<string, unknown>),
    cachePriced: price.cache_read_mtok !== undefined || price.cache_write_mtok !== undefined,
    maxInputTokens: model.context_window,
    id: `${provider.id}:${model.id}`,
    provider: ref.provider || (OUR_NAME.get(provider.id) ?? provider.id),
  };
}

/**
 * The prices in force at `at`: the latest dated set that has started. A model priced by the time of
 * day (DeepSeek's peak and off-peak hours) pays its peak price at every hour: prices are resolved once
 * per deployment, and a budget must not be overrun by an off-peak price applied at peak time.
 */
function pricesAt(model: GenaiPrices.ModelInfo, at: Date): ModelPrice {
  const { prices } = model;
  if (!Array.isArray(prices)) return prices;
  let peak: ModelPrice | undefined; // genai-prices lists the time-of-day (peak) sets last
  for (let i = prices.length - 1; i >= 0; i--) {
    const { constraint } = prices[i]!;
    if (constraint?.type === 'time_of_date') peak ??= prices[i]!.prices;
    else if (constraint === undefined || at >= new Date(constraint.start_date))
      return peak ?? prices[i]!.prices;
  }
  return peak ?? prices[0]!.prices;
}

type Price = ModelPrice[string];
const KEYS = {
  input: 'input_mtok',
  output: 'output_mtok',
  cacheRead: 'cache_read_mtok',
  cacheWrite: 'cache_write_mtok',
} as const;

/**
 * Token prices from a genai-prices price set; undefined when it prices no tokens (audio by the hour).
 * An empty set is a free model (OpenRouter's `:free` variants).
 */
function tokenPrices(price: ModelPrice): TokenPrices | undefined {
  const keys = Object.keys(price);
  if (keys.length > 0 && price.input_mtok === undefined && price.output_mtok === undefined) return undefined;
  const at = (value: Price, start: number): number | undefined => {
    if (value === undefined || typeof value === 'number') return value;
    let current = value.base;
    for (const tier of value.tiers) if (start > tier.start) current = tier.price;
    return current;
  };
  const setAt = (start: number): PriceSet =>
    perToken({
      input: at(price[KEYS.input], start),
      output: at(price[KEYS.output], start),
      cacheRead: at(price[KEYS.cacheRead], start),
      cacheWrite: at(price[KEYS.cacheWrite], start),
    });
  const starts = new Set<number>();
  for (const key of Object.values(KEYS)) {
    const value = price[key];
    if (value !== undefined && typeof value !== 'number') for (const t of value.tiers) starts.add(t.start);
  }
  const searches = (price as { web_searches_kcount?: unknown }).web_searches_kcount;
  const webSearch = typeof searches === 'number' ? { webSearch: searches / 1000 } : undefined;
  const base = setAt(0);
  if (starts.size === 0) return webSearch ? { ...base, ...webSearch } : base;
  const tiers = [...starts].sort((a, b) => a - b).map((start) => ({ ...setAt(start + 1), start }));
  return { ...base, tiers, ...webSearch };
}
