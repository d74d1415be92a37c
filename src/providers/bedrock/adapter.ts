import type { WireRequest } from '../shared/http-client.js';
import type { ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { authorizedHeaders, bedrockApiBase, bedrockAuth, bedrockProblems } from './aws-auth.js';
import { toConverseBody } from './convert-request.js';
import { toChatCompletion } from './convert-response.js';
import { embeddingFamily, toEmbeddingBody, toEmbeddingResponse } from './embeddings.js';
import { BEDROCK_ERROR_CODES } from './error-codes.js';
import { readBedrockError } from './error-map.js';
import { type BedrockAction, bedrockUrl } from './model-id.js';
import { bedrockReasoningParams } from './reasoning-params.js';
import { bedrockStreamCodec } from './stream-codec.js';
import { bedrockChunks } from './stream-transform.js';

const ACCEPT: Readonly<Record<BedrockAction, string>> = {
  converse: 'application/json',
  'converse-stream': 'application/vnd.amazon.eventstream',
  invoke: 'application/json',
};

/**
 * A signed POST of a JSON body to one Bedrock runtime operation. The body is serialised once and those
 * exact bytes are both signed and sent.
 */
async function post(target: ProviderTarget, action: BedrockAction, body: unknown): Promise<WireRequest> {
  const auth = bedrockAuth(target);
  const url = bedrockUrl(bedrockApiBase(target, auth), target, action);
  const text = JSON.stringify(body);
  const headers = await authorizedHeaders(
    auth,
    url,
    { 'content-type': 'application/json', accept: ACCEPT[action] },
    text,
  );
  return { url, headers, body: text };
}

// a model id naming Claude (`anthropic.claude-...`, `us.anthropic.claude-...`)
const CLAUDE = /(^|[./])claude/i;

const EMBEDDING_BATCH: Readonly<Record<string, number | undefined>> = { titan: 1, cohere: 96 };

/**
 * Amazon Bedrock (`bedrock/`): chat over the Converse API (`POST {api_base}/model/{modelId}/converse`
 * and `/converse-stream`, a binary AWS event stream read with the optional `@smithy/eventstream-codec`) and embeddings over InvokeModel
 * (`/model/{modelId}/invoke`, Titan and Cohere). Requests are SigV4-signed for service `bedrock` with
 * svc_params `aws_access_key_id` / `aws_secret_access_key` / `aws_session_token` (else the `AWS_*`
 * environment) in `aws_region_name` (else `AWS_REGION` / `AWS_DEFAULT_REGION`), or carry a Bedrock API
 * key (`api_key`, else `AWS_BEARER_TOKEN_BEDROCK`) as `Authorization: Bearer`. Without `api_base` calls
 * go to `https://bedrock-runtime.{region}.amazonaws.com`.
 */
export const bedrockAdapter: ProviderAdapter = {
  name: 'bedrock',
  prefixes: ['bedrock'],
  defaults: { apiKeyEnv: 'AWS_BEARER_TOKEN_BEDROCK' },
  chat: {
    build: (request, target, options) =>
      post(target, 'converse', toConverseBody(request, target, options.dropParams)),
    parse: (json, target, request) => toChatCompletion(json, target, request),
  },
  chatStream: {
    // the codec is loaded first: without its package the call fails before anything is sent
    build: async (request, target, options) => {
      await bedrockStreamCodec(target);
      return post(target, 'converse-stream', toConverseBody(request, target, options.dropParams));
    },
    parse: (body, target, _request, monitor) => bedrockChunks(body, target, [], monitor),
  },
  // Titan embeds one text per call; Cohere takes up to 96
  embeddingBatchSize: (target) => EMBEDDING_BATCH[embeddingFamily(target) ?? 'none'],
  embedding: {
    build: (request, target) => post(target, 'invoke', toEmbeddingBody(request, target)),
    parse: (json, target, request) => toEmbeddingResponse(json, target, request),
  },
  readError: readBedrockError,
  errorCodes: BEDROCK_ERROR_CODES,
  reasoningParams: (request, model) => {
    if (CLAUDE.test(model)) return { ...bedrockReasoningParams(request) };
    // other Bedrock models take their own reasoning fields through Converse as given
    const { reasoning_effort, thinking } = request;
    return reasoning_effort || thinking
      ? { additionalModelRequestFields: { reasoning_effort, thinking } }
      : {};
  },
  validate: (target) => bedrockProblems(target),
  // AWS keys read from the environment are not in svc_params: name them so no error can carry them
  secrets: (target) => {
    try {
      return [...bedrockAuth(target).secrets];
    } catch {
      return []; // missing credentials are reported by validate
    }
  },
};
