import { APIConnectionError } from '../../errors/classes.js';
import { errorFromResponse } from '../../errors/map-error.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import { asRecord, asString } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { parseSse } from '../shared/sse.js';

function normalizeChunk(json: Record<string, unknown>): ChatCompletionChunk {
  const chunk = json as unknown as ChatCompletionChunk;
  chunk.object = 'chat.completion.chunk';
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta as (typeof choice.delta & { reasoning?: unknown }) | undefined;
    // OpenRouter streams reasoning as `delta.reasoning`
    if (delta && delta.reasoning_content === undefined && typeof delta.reasoning === 'string') {
      delta.reasoning_content = delta.reasoning;
      delete delta.reasoning;
    }
  }
  return chunk;
}

/**
 * OpenAI-compatible SSE into `chat.completion.chunk`s. An `error` object in the stream is thrown as its
 * contract class; a stream that ends without `data: [DONE]` is an APIConnectionError, never a silent
 * success.
 */
export async function* openAIChunks(
  body: AsyncIterable<Uint8Array>,
  target: ProviderTarget,
): AsyncGenerator<ChatCompletionChunk> {
  let done = false;
  for await (const event of parseSse(body)) {
    if (done) continue; // drain so the connection goes back to the pool
    if (event.data === '[DONE]') {
      done = true;
      continue;
    }
    const json = asRecord(JSON.parse(event.data));
    if (!json) continue;
    const error = asRecord(json.error);
    if (error) {
      throw errorFromResponse(
        {
          status: typeof error.code === 'number' ? error.code : 500,
          message: asString(error.message) ?? 'stream error',
          code: asString(error.code) ?? asString(error.type),
        },
        { provider: target.provider, model: target.model, modelId: target.modelId, secrets: [target.apiKey] },
      );
    }
    yield normalizeChunk(json);
  }
  if (!done) {
    throw new APIConnectionError(
      `${target.provider}/${target.model} stream ended before its terminal event ([DONE])`,
      {
        provider: target.provider,
        model: target.model,
        modelId: target.modelId,
      },
    );
  }
}
