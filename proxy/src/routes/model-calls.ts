import type { CallControl, HiddenParams, Usage } from '@svc/router';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyModel } from '../auth/authenticate.js';
import { DEFAULT_DISCONNECT_READ } from '../config/general-settings.js';
import { CallAbort } from '../http/call-abort.js';
import { errorReply } from '../http/proxy-error.js';
import { sseData } from '../http/sse.js';
import type { ProxyContext } from '../proxy-context.js';
import { type ModelCallBody, modelCallBody } from './request-body.js';
import { callControl, isStream, routedCall } from './routed-call.js';
import { type StreamFormat, sendStream } from './send-stream.js';

/** A router method a route calls; resolves to a JSON result or, for chat with `stream: true`, a stream. */
type Invoke = (ctx: ProxyContext, body: ModelCallBody, control: CallControl) => Promise<unknown>;

interface Result {
  _hidden_params?: HiddenParams;
  usage?: Usage | null;
}

/** OpenAI's stream: a `data:` event per chunk, `data: [DONE]` at the end, `{"error": ...}` when cut. */
const OPENAI_STREAM: StreamFormat = {
  async *frames(chunks) {
    for await (const chunk of chunks) yield sseData(chunk);
  },
  end: sseData('[DONE]'),
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
    const caller = await ctx.authenticate(request, bodyModel(request.body));
    const body = modelCallBody(request.body);
    const state = request.svc;
    const abort = new CallAbort(reply);
    const signal = abort.clientGone;
    const ledger = await ctx.admit(
      caller,
      {
        callId: state.callId,
        route,
        model: body.model,
        endUser: body.user ?? null,
        stream: body.stream === true,
        startedAt: state.startedAt,
        traceId: state.traceId,
      },
      signal,
    );
    const result = (await routedCall(state, ledger, signal, () =>
      invoke(ctx, body, callControl(ledger, abort.upstream, caller)),
    )) as Result;
    if (isStream(result)) {
      const disconnectRead = ctx.disconnectRead ?? DEFAULT_DISCONNECT_READ;
      return sendStream(reply, result, OPENAI_STREAM, {
        ledger,
        state,
        abort,
        request: body,
        disconnectRead,
      });
    }
    ledger.succeed(result._hidden_params, result.usage, signal.aborted);
    return result;
  };
}
