/** Dollars per token of each part of a call's usage. */
export interface PriceSet {
  /** Prompt tokens not read from or written to a cache. */
  readonly input: number;
  /** Completion tokens, reasoning tokens included (every provider bills them as output). */
  readonly output: number;
  /** Prompt tokens read from the provider's cache; the input price when the catalog has none. */
  readonly cacheRead: number;
  /** Prompt tokens written to the provider's cache; the input price when the catalog has none. */
  readonly cacheWrite: number;
}

/**
 * A deployment's prices: the base set, and the sets that apply from a prompt size on (Anthropic's and
 * Gemini's long-context prices), `start` ascending: a prompt of more than `start` tokens pays that set.
 */
export interface TokenPrices extends PriceSet {
  readonly tiers?: readonly (PriceSet & { readonly start: number })[];
  /** Dollars per web search the provider runs (`server_tool_use.web_search_requests`); none: unpriced. */
  readonly webSearch?: number;
}

/** Prices per token from per-million-token prices; cache prices default to the input price. */
export function perToken(perMillion: {
  input?: number | undefined;
  output?: number | undefined;
  cacheRead?: number | undefined;
  cacheWrite?: number | undefined;
}): PriceSet {
  const input = (perMillion.input ?? 0) / 1e6;
  return {
    input,
    output: (perMillion.output ?? 0) / 1e6,
    cacheRead: perMillion.cacheRead === undefined ? input : perMillion.cacheRead / 1e6,
    cacheWrite: perMillion.cacheWrite === undefined ? input : perMillion.cacheWrite / 1e6,
  };
}

/**
 * `prices` with `from`'s price per web search when it names none: prices set by hand (a deployment's
 * own, a `model_cost_map` entry) keep the catalog's price of the provider's searches.
 */
export function withSearchPrice(
  prices: TokenPrices | undefined,
  from: TokenPrices | undefined,
): TokenPrices | undefined {
  const webSearch = from?.webSearch;
  if (!prices || webSearch === undefined || prices.webSearch !== undefined) return prices;
  return { ...prices, webSearch };
}

/** The set a prompt of `promptTokens` tokens pays. */
export function priceSetFor(prices: TokenPrices, promptTokens: number): PriceSet {
  const tiers = prices.tiers;
  if (!tiers) return prices;
  let set: PriceSet = prices;
  for (const tier of tiers) if (promptTokens > tier.start) set = tier;
  return set;
}
