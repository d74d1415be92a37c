import type { EmbeddingRequest, EmbeddingResponse } from '../../types/index.js';
import { asFiniteNumber, asRecord } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';
import { requiredList } from '../shared/success-body.js';

/** The model name without a `models/` prefix the caller may have written. */
export function bareModel(model: string): string {
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}

/**
 * The `:batchEmbedContents` body: one request per input text, each naming `models/{model}`;
 * `dimensions` becomes `outputDimensionality`. Token arrays are refused: Gemini embeds text only.
 */
export function toBatchEmbedBody(request: EmbeddingRequest, target: ProviderTarget): Record<string, unknown> {
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string'))
    throw badRequest(target, 'embedding input must be text');
  const model = `models/${bareModel(target.model)}`;
  const dimensions = asFiniteNumber(request.dimensions);
  return {
    requests: inputs.map((text) => {
      const one: Record<string, unknown> = { model, content: { parts: [{ text }] } };
      if (dimensions !== undefined) one.outputDimensionality = dimensions;
      return one;
    }),
  };
}

/**
 * A `{ embeddings: [{ values }] }` answer as the OpenAI embedding list. Gemini reports no token
 * counts for embeddings, so usage is zero.
 *
 * @throws InternalServerError when `embeddings` is missing or empty.
 */
export function toEmbeddingResponse(json: unknown, target: ProviderTarget): EmbeddingResponse {
  const embeddings = requiredList(asRecord(json) ?? {}, 'embeddings', target);
  return {
    object: 'list',
    data: embeddings.map((raw, index) => {
      const values = asRecord(raw)?.values;
      return { object: 'embedding', index, embedding: Array.isArray(values) ? (values as number[]) : [] };
    }),
    model: target.model,
    usage: { prompt_tokens: 0, total_tokens: 0 },
  };
}
