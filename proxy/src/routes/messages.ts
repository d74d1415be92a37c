import { isPromise } from '@svc/router';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anthropicErrorBody } from '../anthropic/anthropic-error.js';
import { AnthropicEventWriter, type AnthropicStreamEvent } from '../anthropic/to-anthropic-events.js';
import { chatCompletionToAnthropic } from '../anthropic/to-anthropic-message.js';
import { anthropicToChatRequest } from '../anthropic/to-chat-request.js';
import { bodyModel } from '../auth/authenticate.js';
import { errorReply, fixedBody } from '../http/proxy-error.js';
import { requestTags, TAGS_HEADER, withTags } from '../http/request-tags.js';
import { sseEvent } from '../http/sse.js';
import type { ProxyContext } from '../proxy-context.js';
import { admitAndRoute } from './admitted-call.js';
import { isStream } from './routed-call.js';
import type { StreamFormat } from './send-stream.js';

/**
 * `POST /v1/messages`: Anthropic's Messages API over any deployment. The body is translated to a chat
 * request, routed like any other call, and the answer (or its stream) translated back, so the
 * Anthropic SDK works against an OpenAI, Gemini or Bedrock deployment too. Errors use Anthropic's
 * body shape (with our `code` inside), which both kinds of client read.
 */
export function registerMessagesRoute(app: FastifyInstance, ctx: ProxyContext): void {
  app.post('/v1/messages', { errorHandler: anthropicErrors }, async (request, reply) => {
    // a caller known at once (a warm key) is taken without an await: one is a promise and a turn
    const found = ctx.authenticate(request, bodyModel(request.body));
    const caller = isPromise(found) ? await found : found;
    // Anthropic's `metadata` is the request's own (loose): its `tags` are read like a chat request's
    const tags = requestTags(
      (request.body as { metadata?: unknown } | null)?.metadata,
      request.headers[TAGS_HEADER],
    );
    const chatRequest = withTags(anthropicToChatRequest(request.body), tags);
    const call = await admitAndRoute(
      ctx,
      request,
      reply,
      caller,
      {
        route: '/v1/messages',
        model: chatRequest.model,
        endUser: typeof chatRequest.user === 'string' ? chatRequest.user : null,
        stream: chatRequest.stream === true,
        tags,
        prompt: chatRequest,
      },
      (control) => ctx.router.acompletion(chatRequest, control),
    );
    const { result, ledger } = call;
    if (isStream(result)) return call.sendStream(result, anthropicStream(chatRequest.model), chatRequest);
    ledger.succeed(result._hidden_params, result.usage, call.clientGone);
    return chatCompletionToAnthropic(result, chatRequest.model);
  });
}

/** Events as one write: one per chunk, not one per event. */
function framesOf(events: readonly AnthropicStreamEvent[]): string {
  let out = '';
  for (const { event, data } of events) out += sseEvent(event, data);
  return out;
}

/** Anthropic's stream: named events, an `error` event when cut. */
function anthropicStream(model: string): StreamFormat {
  const writer = new AnthropicEventWriter({ model });
  return {
    frame: (chunk) => framesOf(writer.push(chunk)),
    end: () => framesOf(writer.end()),
    error: (error) => sseEvent('error', anthropicErrorBody(error)),
  };
}

function anthropicErrors(error: unknown, _request: FastifyRequest, reply: FastifyReply) {
  const { status, headers } = errorReply(error);
  return reply
    .code(status)
    .headers(headers)
    .send(fixedBody(error) ?? anthropicErrorBody(error));
}
