import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChatCompletionStream } from '../../router/chat-stream.js';
import type { CallControl } from '../../router/router.js';
import type { HiddenParams, Usage } from '../../types/index.js';
import { clientGoneSignal } from '../http/call-state.js';
import type { ProxyContext } from '../proxy-context.js';
import type { CallLedger } from '../spend/call-ledger.js';
import { type ModelCallBody, modelCallBody } from './request-body.js';
import { streamChat } from './stream-chat.js';

/** A router method a route calls; resolves to a JSON result or, for chat with `stream: true`, a stream. */
type Invoke = (ctx: ProxyContext, body: ModelCallBody, control: CallControl) => Promise<unknown>;

interface Result {
  _hidden_params?: HiddenParams;
  usage?: Usage | null;
}

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
];

/** The OpenAI-compatible model calls: chat (streaming too), text completions, embeddings, images. */
export function registerModelCallRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  for (const { paths, invoke } of ROUTES) {
    const handler = modelCallHandler(ctx, invoke, paths[0]!);
    for (const path of paths) app.post(path, handler);
  }
}

function modelCallHandler(ctx: ProxyContext, invoke: Invoke, route: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const caller = await ctx.authenticate(request.headers);
    const body = modelCallBody(request.body);
    const state = request.svc;
    const signal = clientGoneSignal(reply);
    const ledger = await ctx.admit(
      caller,
      {
        callId: state.callId,
        route,
        model: body.model,
        endUser: body.user ?? null,
        stream: body.stream === true,
        startedAt: state.startedAt,
      },
      signal,
    );
    const result = await callRouter(ctx, invoke, body, signal, ledger, request);
    if (body.stream === true && isStream(result)) {
      return streamChat(reply, result, ledger, request.svc, signal);
    }
    ledger.succeed(result._hidden_params, result.usage);
    return result;
  };
}

/** Calls the router, timing it (the part of the request that is not the proxy's own overhead). */
async function callRouter(
  ctx: ProxyContext,
  invoke: Invoke,
  body: ModelCallBody,
  signal: AbortSignal,
  ledger: CallLedger,
  request: FastifyRequest,
): Promise<Result> {
  const started = performance.now();
  try {
    return (await invoke(ctx, body, { signal })) as Result;
  } catch (error) {
    ledger.fail(error, signal.aborted);
    throw error;
  } finally {
    request.svc.routerMs += performance.now() - started;
  }
}

function isStream(result: unknown): result is ChatCompletionStream {
  return typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
