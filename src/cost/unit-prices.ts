/**
 * Prices of calls billed by something other than tokens, in dollars per unit: seconds of audio
 * transcribed, characters spoken, rerank searches (Cohere's search units). LiteLLM's field names:
 * `input_cost_per_second`, `input_cost_per_character`, `input_cost_per_query`.
 */
export interface UnitPrices {
  readonly perSecond?: number | undefined;
  readonly perCharacter?: number | undefined;
  readonly perQuery?: number | undefined;
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

function unitPrices(perSecond?: number, perCharacter?: number, perQuery?: number): UnitPrices | undefined {
  if (perSecond === undefined && perCharacter === undefined && perQuery === undefined) return undefined;
  return Object.freeze({ perSecond, perCharacter, perQuery });
}

/** A deployment's own unit prices (`svc_params` or `model_info`), LiteLLM's names; undefined when none. */
export function ownUnitPrices(own: Readonly<Record<string, unknown>>): UnitPrices | undefined {
  return unitPrices(
    num(own.input_cost_per_second),
    num(own.input_cost_per_character),
    num(own.input_cost_per_query),
  );
}

/**
 * The unit prices of a genai-prices price set: audio by the hour (`input_audio_hours`, else
 * `audio_hours`) per second, rerank searches by the thousand per search; undefined when it has none.
 */
export function catalogUnitPrices(price: Readonly<Record<string, unknown>>): UnitPrices | undefined {
  const hours = num(price.input_audio_hours) ?? num(price.audio_hours);
  const searches = num(price.rerank_searches_kcount);
  return unitPrices(
    hours === undefined ? undefined : hours / 3600,
    undefined,
    searches === undefined ? undefined : searches / 1000,
  );
}
