import { Readable } from 'node:stream';
import { type CallControl, type HiddenParams, isPromise, type SpeechResponse, type Usage } from '@svc/router';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyModel } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { errorReply } from '../http/proxy-error.js';
import { requestTags, TAGS_HEADER, withTags } from '../http/request-tags.js';
import { sseData } from '../http/sse.js';
import type { ProxyContext } from '../proxy-context.js';
import { admitAndRoute } from './admitted-call.js';
import { type ModelCallBody, modelCallBody } from './request-body.js';
import { isStream } from './routed-call.js';
import type { StreamFormat } from './send-stream.js';

/** A router method a route calls; resolves to a JSON result or, for chat with `stream: true`, a stream. */
export type Invoke = (ctx: ProxyContext, body: ModelCallBody, control: CallControl) => Promise<unknown>;

interface Result {
  _hidden_params?: HiddenParams;
  usage?: Usage | null;
}

const DONE_FRAME = sseData('[DONE]');

/** OpenAI's stream: a `data:` event per chunk, `data: [DONE]` at the end, `{"error": ...}` when cut. */
const OPENAI_STREAM: StreamFormat = {
  frame: (chunk) => sseData(chunk),
  end: () => DONE_FRAME,
  error: (error) => sseData(errorReply(error).body),
};

const ROUTES: ReadonlyArray<{ paths: readonly string[]; invoke: Invoke }> = [
  {
    paths: ['/v1/chat/completions', '/chat/completions'],
    invoke: (ctx, body, control) => ctx.router.acompletion(body as never, control),
  },
  {
    paths: ['/v1/completions', '/completions'],
    invoke: (ctx, body, control) => ctx.router.atextCompletion(body as never, control),
  },
  {
    paths: ['/v1/embeddings', '/embeddings'],
    invoke: (ctx, body, control) => ctx.router.aembedding(body as never, control),
  },
  {
    paths: ['/v1/images/generations', '/images/generations'],
    invoke: (ctx, body, control) => ctx.router.aimageGeneration(body as never, control),
  },
  {
    paths: ['/v1/audio/speech', '/audio/speech'],
    invoke: (ctx, body, control) => ctx.router.aspeech(body as never, control),
  },
  {
    paths: ['/v1/moderations', '/moderations'],
    invoke: (ctx, body, control) => ctx.router.amoderation(body as never, control),
  },
  {
    paths: ['/v1/rerank', '/rerank'],
    invoke: (ctx, body, control) => ctx.router.arerank(body as never, control),
  },
];

/**
 * The OpenAI-compatible model calls: chat (streaming too), text completions, embeddings, images, speech
 * (answered as audio bytes), moderations, rerank.
 */
export function registerModelCallRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  for (const { paths, invoke } of ROUTES) {
    const handler = modelCallHandler(ctx, invoke, paths[0]!);
    for (const path of paths) app.post(path, handler);
  }
}

function modelCallHandler(ctx: ProxyContext, invoke: Invoke, route: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    // a caller known at once (a warm key) is taken without an await: one is a promise and a turn
    const found = ctx.authenticate(request, bodyModel(request.body));
    const caller = isPromise(found) ? await found : found;
    const given = modelCallBody(request.body);
    const tags = requestTags(given.metadata, request.headers[TAGS_HEADER]);
    // the router reads the tags (tag filtering) from the request's metadata, the header's included
    const body = withTags(given, tags);
    return callModel(ctx, request, reply, { caller, body, route, invoke, tags });
  };
}

/**
 * Runs an authenticated model call: admitted (budget, limits), routed under the caller's model access,
 * its spend row written when it ends; answers JSON, an SSE stream, or audio bytes (speech).
 */
export async function callModel(
  ctx: ProxyContext,
  request: FastifyRequest,
  reply: FastifyReply,
  call: { caller: Caller; body: ModelCallBody; route: string; invoke: Invoke; tags: readonly string[] },
): Promise<unknown> {
  const { caller, body, route, invoke, tags } = call;
  const admitted = await admitAndRoute(
    ctx,
    request,
    reply,
    caller,
    {
      route,
      model: body.model,
      endUser: body.user ?? null,
      stream: body.stream === true,
      tags,
      prompt: body as Readonly<Record<string, unknown>>,
    },
    (control) => invoke(ctx, body, control) as Promise<Result>,
  );
  const { result, ledger } = admitted;
  if (isStream(result)) return admitted.sendStream(result, OPENAI_STREAM, body);
  ledger.succeed(result._hidden_params, result.usage, admitted.clientGone);
  if (isAudio(result)) return reply.type(result.content_type).send(Readable.from(result.body));
  return result;
}

function isAudio(result: object): result is SpeechResponse {
  return typeof (result as Partial<SpeechResponse>).content_type === 'string' && 'body' in result;
}
