import { InternalServerError } from '../../errors/classes.js';
import type { EmbeddingRequest, EmbeddingResponse } from '../../types/index.js';
import { asFiniteNumber, asRecord } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest, errorOptions } from '../shared/provider-errors.js';
import { bedrockModelId } from './model-id.js';

/** The embedding model families this adapter speaks over InvokeModel. */
export type EmbeddingFamily = 'titan' | 'cohere';

/** Titan (`amazon.titan-embed-*`) or Cohere (`cohere.embed-*`), inference profile prefixes allowed. */
export function embeddingFamily(target: ProviderTarget): EmbeddingFamily | undefined {
  const id = bedrockModelId(target);
  if (/(?:^|[./:])amazon\.titan-embed/.test(id)) return 'titan';
  if (/(?:^|[./:])cohere\.embed/.test(id)) return 'cohere';
  return undefined;
}

function textInputs(request: EmbeddingRequest, target: ProviderTarget): string[] {
  const input = request.input;
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw badRequest(target, '`input` is empty');
  if (!list.every((item): item is string => typeof item === 'string'))
    throw badRequest(target, 'Bedrock embeddings take text `input`, not token arrays');
  return list;
}

/**
 * The InvokeModel body of an embeddings request. Titan takes one `inputText` per call (with
 * `dimensions` when asked); Cohere takes all `texts` at once with `input_type` (the request's, else
 * `search_document`) and `dimensions` as `output_dimension`.
 *
 * @throws BadRequestError for another model family or token-array input. Several inputs for Titan are
 * split into one call each by the router (`embeddingBatchSize`).
 */
export function toEmbeddingBody(request: EmbeddingRequest, target: ProviderTarget): Record<string, unknown> {
  const family = embeddingFamily(target);
  const inputs = textInputs(request, target);
  if (family === 'titan') {
    // the router splits longer inputs (embeddingBatchSize 1), so this is one text
    if (inputs.length > 1) throw badRequest(target, `Titan embeds one input per call; got ${inputs.length}`);
    const body: Record<string, unknown> = { inputText: inputs[0] };
    if (request.dimensions !== undefined) body.dimensions = request.dimensions;
    return body;
  }
  if (family === 'cohere') {
    const inputType = typeof request.input_type === 'string' ? request.input_type : 'search_document';
    const body: Record<string, unknown> = { texts: inputs, input_type: inputType };
    if (request.dimensions !== undefined) body.output_dimension = request.dimensions;
    return body;
  }
  throw badRequest(
    target,
    'embeddings are available for Titan (`amazon.titan-embed-*`) and Cohere (`cohere.embed-*`) models',
  );
}

// OpenAI's base64 encoding: the float32 little-endian bytes of the vector.
function base64Of(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => {
    bytes.writeFloatLE(value, i * 4);
  });
  return bytes.toString('base64');
}

function vectorsOf(body: Record<string, unknown>): number[][] | undefined {
  if (Array.isArray(body.embedding)) return [body.embedding as number[]];
  if (Array.isArray(body.embeddings)) return body.embeddings as number[][];
  // Cohere with `embedding_types` answers `{ embeddings: { float: [...] } }`
  const byType = asRecord(body.embeddings);
  if (byType && Array.isArray(byType.float)) return byType.float as number[][];
  return undefined;
}

/**
 * An InvokeModel embeddings answer (Titan `{ embedding, inputTextTokenCount }`, Cohere
 * `{ embeddings }`) as the OpenAI embedding list. Cohere reports no token count in the body, so its
 * usage is 0.
 *
 * @throws InternalServerError when the body holds no vectors.
 */
export function toEmbeddingResponse(
  json: unknown,
  target: ProviderTarget,
  request: EmbeddingRequest,
): EmbeddingResponse {
  const body = asRecord(json) ?? {};
  const vectors = vectorsOf(body);
  if (!vectors || vectors.length === 0) {
    throw new InternalServerError(
      `${target.provider}/${target.model} answered without embeddings`,
      errorOptions(target),
    );
  }
  const base64 = request.encoding_format === 'base64';
  const tokens = asFiniteNumber(body.inputTextTokenCount) ?? 0;
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? base64Of(vector) : vector,
    })),
    model: bedrockModelId(target),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
