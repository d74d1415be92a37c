import { isPromise } from '@svc/router';
import {
  chatCompletionToResponse,
  type InputItem,
  inputItems,
  parseResponsesRequest,
  type ResponseObject,
  ResponsesStreamWriter,
  responseShell,
  responsesToChatRequest,
} from '@svc/router/responses';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyModel } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { mayReadResponse, responseOwner } from '../auth/response-access.js';
import {
  deleteStoredResponse,
  getStoredResponse,
  insertResponse,
  type StoredResponse,
} from '../db/responses-repo.js';
import { ProxyError } from '../http/proxy-error.js';
import { requestTags, TAGS_HEADER, withTags } from '../http/request-tags.js';
import type { ProxyContext } from '../proxy-context.js';
import { admitAndRoute } from './admitted-call.js';
import { inputItemsPage, parseInputItemsQuery } from './input-items.js';
import { responsesStreamFormat } from './responses-stream.js';
import { isStream } from './routed-call.js';

/**
 * `POST /v1/responses`, `GET /v1/responses/{id}` (and its `input_items`) and
 * `DELETE /v1/responses/{id}`: OpenAI's Responses API over any deployment. The request is translated
 * to a chat request (`@svc/router/responses`), routed like any chat call (the key's model access,
 * limits and budget, failover, a spend row on route `/v1/responses`), and the answer (or its stream)
 * translated back. With `store` (the default) the response is kept in the
 * database: its owner may read it, continue from it with `previous_response_id`, and delete it.
 */
export function registerResponsesRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  const create = createHandler(ctx);
  const retrieve = retrieveHandler(ctx);
  const listInput = inputItemsHandler(ctx);
  const remove = deleteHandler(ctx);
  for (const base of ['/v1/responses', '/responses']) {
    app.post(base, create);
    app.get(`${base}/:id`, retrieve);
    app.get(`${base}/:id/input_items`, listInput);
    app.delete(`${base}/:id`, remove);
  }
}

function notFound(id: string): ProxyError {
  return new ProxyError(404, 'response_not_found', `No stored response \`${id}\` that this caller may read.`);
}

/** The stored response, when it exists and the caller may read it; else 404 (never saying which). */
async function ownedResponse(ctx: ProxyContext, caller: Caller, id: string): Promise<StoredResponse> {
  const row = await getStoredResponse(ctx.db, id);
  if (!row || !mayReadResponse(caller, row)) throw notFound(id);
  return row;
}

/**
 * Stores a finished response. A database failure does not take the answer from the caller (it was
 * served and charged): it is logged, and continuing from this response then answers 404.
 */
function storer(ctx: ProxyContext, caller: Caller, input: readonly InputItem[], log: FastifyBaseLogger) {
  const owner = responseOwner(caller);
  return async (response: ResponseObject): Promise<void> => {
    try {
      await insertResponse(ctx.db, {
        ...owner,
        response_id: response.id,
        model: response.model,
        input,
        response,
      });
    } catch (error) {
      log.error({ err: error, response_id: response.id }, 'could not store the response');
    }
  };
}

const dontStore = async (): Promise<void> => {};

function createHandler(ctx: ProxyContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    // a caller known at once (a warm key) is taken without an await: one is a promise and a turn
    const found = ctx.authenticate(request, bodyModel(request.body));
    const caller = isPromise(found) ? await found : found;
    const parsed = parseResponsesRequest(request.body);
    const previous = parsed.previous_response_id
      ? await ownedResponse(ctx, caller, parsed.previous_response_id)
      : undefined;
    const history: InputItem[] = previous ? [...previous.input, ...previous.response.output] : [];
    // the Responses API's `metadata` holds strings only: tags come from the header
    const tags = requestTags(undefined, request.headers[TAGS_HEADER]);
    const chatRequest = withTags(responsesToChatRequest(parsed, { history }), tags);
    const shell = responseShell(parsed);
    const store =
      parsed.store === false
        ? dontStore
        : storer(ctx, caller, [...history, ...inputItems(parsed.input)], request.log);
    const call = await admitAndRoute(
      ctx,
      request,
      reply,
      caller,
      {
        route: '/v1/responses',
        model: parsed.model,
        endUser: parsed.user ?? null,
        stream: chatRequest.stream === true,
        tags,
        prompt: chatRequest,
      },
      (control) => ctx.router.acompletion(chatRequest, control),
    );
    const { result, ledger } = call;
    if (isStream(result)) {
      const format = responsesStreamFormat(new ResponsesStreamWriter(shell), store);
      return call.sendStream(result, format, chatRequest);
    }
    ledger.succeed(result._hidden_params, result.usage, call.clientGone);
    const response = chatCompletionToResponse(result, shell);
    await store(response);
    return response;
  };
}

function retrieveHandler(ctx: ProxyContext) {
  return async (request: FastifyRequest): Promise<unknown> => {
    const caller = await ctx.authenticate(request);
    const { id } = request.params as { id: string };
    if ((request.query as { stream?: unknown }).stream === 'true') {
      throw new ProxyError(400, 'invalid_request', '`stream`: a stored response is only returned whole.');
    }
    return (await ownedResponse(ctx, caller, id)).response;
  };
}

/**
 * Deletes a stored response its caller may read, answering as OpenAI does. A response that continued
 * from it keeps its own copy of the conversation (each stored response holds its history whole), and
 * is deleted on its own.
 */
function deleteHandler(ctx: ProxyContext) {
  return async (request: FastifyRequest): Promise<unknown> => {
    const caller = await ctx.authenticate(request);
    const { id } = request.params as { id: string };
    await ownedResponse(ctx, caller, id);
    // gone meanwhile (another delete): as if it had never been there
    if (!(await deleteStoredResponse(ctx.db, id))) throw notFound(id);
    return { id, object: 'response', deleted: true };
  };
}

/** Lists the items a stored response its caller may read was made from, a page at a time. */
function inputItemsHandler(ctx: ProxyContext) {
  return async (request: FastifyRequest): Promise<unknown> => {
    const caller = await ctx.authenticate(request);
    const { id } = request.params as { id: string };
    const query = parseInputItemsQuery(request.query as Record<string, unknown>);
    const stored = await ownedResponse(ctx, caller, id);
    return inputItemsPage(stored.input, id, query);
  };
}
