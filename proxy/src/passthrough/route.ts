import { pipeline, Readable } from 'node:stream';
import { catalogCost, type HiddenParams, usageReader } from '@svc/router';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'undici';
import { CallAbort } from '../http/call-abort.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { type AnswerEnd, CLIENT_CLOSED, WHOLE } from '../spend/call-ledger.js';
import { answerTap } from './answer-tap.js';
import { forwardedBody, readRequestHead } from './request-head.js';
import type { PassThroughEndpoint } from './settings.js';
import { answerHeaders, upstreamHeaders, withoutKeyParam } from './upstream-headers.js';

/** Ten minutes: an agent's long answer may take that long to start, or pause that long. */
const UPSTREAM_TIMEOUT_MS = 600_000;

/**
 * `general_settings.pass_through_endpoints`: `path` and `path/*` forwarded to `target` as they come,
 * bodies streamed both ways, with the configured headers instead of the caller's credentials. The
 * caller presents a virtual key (`Authorization: Bearer`, `x-api-key` or `x-goog-api-key`); the call
 * is admitted like a model call (the key's models, rate limits and budget) and leaves a spend row,
 * with the answer's usage and its catalog cost when the endpoint names its `provider`.
 */
export function registerPassThroughRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  const endpoints = ctx.passThrough ?? [];
  if (endpoints.length === 0) return;
  const agent = new Agent({ headersTimeout: UPSTREAM_TIMEOUT_MS, bodyTimeout: UPSTREAM_TIMEOUT_MS });
  app.addHook('onClose', () => agent.close());
  app.register(async (scope) => {
    // bodies are streamed to the target, never parsed here
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    for (const endpoint of endpoints) {
      const handler = passThroughHandler(ctx, endpoint, agent);
      scope.all(endpoint.path, handler);
      scope.all(`${endpoint.path}/*`, handler);
    }
  });
}

function passThroughHandler(ctx: ProxyContext, endpoint: PassThroughEndpoint, agent: Agent) {
  const target = new URL(endpoint.target);
  const base = target.pathname.replace(/\/$/, '');
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const caller = await ctx.authenticate(request);
    const url = request.raw.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const rest = path.slice(endpoint.path.length);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const incoming = hasBody ? (request.raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>) : undefined;
    const head = await readRequestHead(incoming, rest);
    const state = request.svc;
    const abort = new CallAbort(reply);
    const ledger = await ctx.admit(
      caller,
      {
        callId: state.callId,
        route: endpoint.path,
        model: head.model ?? endpoint.path,
        endUser: null,
        stream: head.stream,
        startedAt: state.startedAt,
        traceId: state.traceId,
      },
      abort.clientGone,
    );
    let answer: Awaited<ReturnType<Agent['request']>>;
    try {
      answer = await agent.request({
        origin: target.origin,
        path: `${base}${rest}${withoutKeyParam(query === -1 ? '' : url.slice(query))}`,
        method: request.method as 'POST',
        headers: upstreamHeaders(request.headers, endpoint.headers),
        body: incoming ? Readable.from(forwardedBody(head.chunks, incoming), { objectMode: false }) : null,
        signal: abort.upstream,
      });
    } catch (error) {
      ledger.fail(error, abort.clientGone.aborted);
      throw new ProxyError(
        502,
        'pass_through_upstream_unreachable',
        `The pass-through target of \`${endpoint.path}\` did not answer.`,
      );
    }
    abort.answering();
    const eventStream = String(answer.headers['content-type'] ?? '').includes('text/event-stream');
    const provider = endpoint.provider;
    const tap =
      provider && answer.statusCode < 400 ? answerTap(usageReader(provider), eventStream) : undefined;
    let cut: unknown;
    answer.body.once('error', (error) => {
      cut = error;
    });
    reply.raw.once('close', () => {
      const whole = reply.raw.writableFinished;
      const end: AnswerEnd = cut ? { kind: 'cut', error: cut } : whole ? WHOLE : CLIENT_CLOSED;
      if (!whole) abort.stopUpstream(new Error('the client closed the connection'));
      if (answer.statusCode >= 400) {
        ledger.fail(
          new ProxyError(
            answer.statusCode,
            'pass_through_upstream_error',
            `The target answered ${answer.statusCode}.`,
          ),
          end === CLIENT_CLOSED,
        );
        return;
      }
      void (tap ? tap.usage() : Promise.resolve(undefined)).then((read) => {
        const model = read?.model ?? head.model ?? endpoint.path;
        const charged = provider && read?.usage ? catalogCost(provider, model, read.usage) : undefined;
        const hidden = {
          model_group: model,
          custom_llm_provider: provider ?? null,
          priced: charged?.priced ?? false,
          cache_hit: false,
        } as unknown as HiddenParams;
        ledger.answered(hidden, { usage: read?.usage, cost: charged?.cost ?? 0, estimated: false }, end);
      });
    });
    reply.code(answer.statusCode).headers(answerHeaders(answer.headers));
    if (!tap) return reply.send(answer.body);
    // a cut upstream ends the tap with its error, so the reply ends (cut) too
    pipeline(answer.body, tap.stage, () => undefined);
    return reply.send(tap.stage);
  };
}
