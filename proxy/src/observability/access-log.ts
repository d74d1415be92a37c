import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One `info` line per request, written when it is answered (`request completed`, with the request's
 * method, URL and address, its call id, and the status and time of its answer), where fastify writes
 * two; the `incoming request` line moves to `debug`, for finding a request that never completes.
 *
 * The line goes through `access` (see `accessLogger`): it carries nothing the redaction paths could
 * match (the URL's credential query values are redacted by the `req` serializer), and matching them on
 * every request cost about 9 µs a line, a gateway call's largest fixed cost after the call itself.
 */
export class AccessLog extends LogController {
  readonly #access: FastifyBaseLogger;

  constructor(options: ConstructorParameters<typeof LogController>[0], access: FastifyBaseLogger) {
    super(options);
    this.#access = access;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || this.isLogDisabled(request)) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    this.#access.info(
      {
        [this.requestIdLogLabel]: request.id,
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}
