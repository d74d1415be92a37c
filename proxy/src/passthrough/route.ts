import { Readable } from 'node:stream';
import { isPromise } from '@svc/router';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'undici';
import { DEFAULT_DISCONNECT_READ } from '../config/general-settings.js';
import { CallAbort } from '../http/call-abort.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { chargeLeftCall } from './left-charge.js';
import { forwardedBody, MIN_PASS_THROUGH_BODY_BYTES, readRequestHead } from './request-head.js';
import { sendTargetAnswer } from './send-answer.js';
import type { PassThroughEndpoint } from './settings.js';
import { pathPricing, unpricedRefusal } from './unpriced.js';
import { upstreamHeaders, withoutKeyParam } from './upstream-headers.js';

/**
 * A `.` or `..` segment, an encoded `.` or `/`, or a `#` (an empty segment is left: a sloppy base URL
 * makes one). A call is priced by its path: a front that resolves the segments or drops a fragment
 * would serve another path than the one priced (`/v1/images/generations#/moderations`).
 */
const UNSAFE_PATH = /(^|\/)\.\.?(\/|$)|%2[ef]|#/i;

/** Ten minutes: an agent's long answer may take that long to start, or pause that long. */
const UPSTREAM_TIMEOUT_MS = 600_000;

/**
 * `general_settings.pass_through_endpoints`: `path` and `path/*` forwarded to `target` as they come,
 * bodies streamed both ways, with the configured headers instead of the caller's credentials. The
 * caller presents a virtual key (`Authorization: Bearer`, `x-api-key` or `x-goog-api-key`); the call
 * is admitted like a model call (the key's models, rate limits and budget) and leaves a spend row,
 * with the answer's usage and its catalog cost when the endpoint names its `provider`. A call charged
 * to a budget that the endpoint cannot price is refused before forwarding (400 `model_unpriced`).
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
    // forwarded as written: a front that resolves `..` or decodes `%2F` would serve another path
    if (UNSAFE_PATH.test(rest))
      throw new ProxyError(
        400,
        'invalid_request',
        'The path has `.` or `..` segments, an encoded `/` or `.`, or a `#`: send it resolved, without a fragment.',
      );
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const incoming = hasBody ? (request.raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>) : undefined;
    // what the target is asked for: an endpoint may map its own path to a full one (`/claude` to
    // `https://api.anthropic.com/v1/messages`)
    const upstreamPath = `${base}${rest}`;
    const pricing = endpoint.provider && pathPricing(endpoint.provider, request.method, upstreamPath);
    const head = await readRequestHead(incoming, rest, request.headers, {
      limitBytes: Math.max(ctx.bodyLimit, MIN_PASS_THROUGH_BODY_BYTES),
      provider: endpoint.provider,
    });
    const state = request.svc;
    const abort = new CallAbort(reply);
    const admitted = ctx.admit(
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
      abort.upstream,
    );
    const ledger = isPromise(admitted) ? await admitted : admitted;
    const refusal = unpricedRefusal(
      endpoint,
      head,
      { upstream: upstreamPath, asked: path, pricing },
      ledger.budgeted,
    );
    if (refusal) {
      ledger.fail(refusal);
      throw refusal;
    }
    let answer: Awaited<ReturnType<Agent['request']>>;
    try {
      answer = await agent.request({
        origin: target.origin,
        path: `${upstreamPath}${withoutKeyParam(query === -1 ? '' : url.slice(query))}`,
        method: request.method as 'POST',
        headers: upstreamHeaders(request.headers, endpoint.headers),
        body: incoming ? Readable.from(forwardedBody(head.chunks, incoming), { objectMode: false }) : null,
        signal: abort.upstream,
      });
    } catch (error) {
      // gone before the target answered: it had the prompt
      if (abort.gone)
        void chargeLeftCall(ledger, endpoint, head, pricing, error).catch(() => ledger.fail(error, true));
      else ledger.fail(error);
      throw new ProxyError(
        502,
        'pass_through_upstream_unreachable',
        `The pass-through target of \`${endpoint.path}\` did not answer.`,
      );
    }
    abort.answering();
    return sendTargetAnswer(reply, answer, {
      endpoint,
      ledger,
      abort,
      model: head.model,
      free: pricing === 'free',
      disconnectRead: ctx.disconnectRead ?? DEFAULT_DISCONNECT_READ,
    });
  };
}
