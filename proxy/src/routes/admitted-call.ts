import { type CallControl, type ChatCompletionStream, isPromise, MAX_MODEL_CHARS } from '@svc/router';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller.js';
import { DEFAULT_DISCONNECT_READ, type DisconnectRead } from '../config/general-settings.js';
import { storedEndUser } from '../db/spend-log-row.js';
import { CallAbort } from '../http/call-abort.js';
import type { CallState } from '../http/call-state.js';
import { ProxyError } from '../http/proxy-error.js';
import { DEFAULT_SEND_TIMEOUT_MS } from '../http/sse.js';
import type { ProxyContext } from '../proxy-context.js';
import type { CallFacts, CallLedger } from '../spend/call-ledger.js';
import { callControl, routedCall } from './routed-call.js';
import { type StreamFormat, sendStream } from './send-stream.js';

/**
 * What a route says of its model call: the facts its spend row keeps that only the route knows, and
 * `prompt`: the request routed (a chat request, translated if need be), whose prompt is charged,
 * counted, if its client leaves while a provider has it.
 */
export type Admission = Pick<CallFacts, 'route' | 'model' | 'endUser' | 'stream' | 'tags'> & {
  prompt: Readonly<Record<string, unknown>>;
};

/** A model call admitted and routed: the router's result, and what answers it. */
export interface AdmittedCall<T> {
  result: T;
  ledger: CallLedger;
  /** Whether the client left before the answer (a whole answer is then charged as `client_closed`). */
  readonly clientGone: boolean;
  /** Sends a stream result in `format`; the ledger closes when it ends. `request`: the chat request routed. */
  sendStream(
    stream: ChatCompletionStream,
    format: StreamFormat,
    request: Readonly<Record<string, unknown>>,
  ): Promise<void>;
}

/**
 * Admits an authenticated model call (budgets, limits: the ledger its spend row comes from), then runs
 * `invoke` under the caller's model access and the request's abort (`routedCall`). The steps every
 * model route takes, in one place: the OpenAI-compatible calls, `/v1/messages`, `/v1/responses`.
 */
export async function admitAndRoute<T>(
  ctx: ProxyContext,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  admission: Admission,
  invoke: (control: CallControl) => Promise<T>,
): Promise<AdmittedCall<T>> {
  // before anything keeps it: the admission's caches, the spend row
  if (admission.model.length > MAX_MODEL_CHARS)
    throw new ProxyError(
      400,
      'invalid_request',
      `\`model\`: expected at most ${MAX_MODEL_CHARS} characters.`,
    );
  const state = request.svc;
  const abort = new CallAbort(reply);
  // every field named, no spread: a spread followed by more properties is V8's slow path
  const facts: CallFacts = {
    callId: state.callId,
    route: admission.route,
    model: admission.model,
    endUser: admission.endUser === null ? null : storedEndUser(admission.endUser),
    stream: admission.stream,
    startedAt: state.startedAt,
    traceId: state.traceId,
    tags: admission.tags,
  };
  const admitted = ctx.admit(caller, facts, abort.upstream);
  const ledger = isPromise(admitted) ? await admitted : admitted;
  const result = await routedCall(state, ledger, abort, admission.prompt, () =>
    invoke(callControl(ledger, abort.upstream, caller, ctx.router.getAccessGroups())),
  );
  return new Admitted(
    result,
    ledger,
    abort,
    reply,
    state,
    ctx.disconnectRead ?? DEFAULT_DISCONNECT_READ,
    ctx.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
  );
}

// a class, not an object literal: a getter in a literal makes V8 build each object on its slow path
class Admitted<T> implements AdmittedCall<T> {
  constructor(
    readonly result: T,
    readonly ledger: CallLedger,
    private readonly abort: CallAbort,
    private readonly reply: FastifyReply,
    private readonly state: CallState,
    private readonly disconnectRead: DisconnectRead,
    private readonly sendTimeoutMs: number,
  ) {}

  get clientGone(): boolean {
    return this.abort.gone;
  }

  sendStream(
    stream: ChatCompletionStream,
    format: StreamFormat,
    request: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const { ledger, abort, reply, state, disconnectRead, sendTimeoutMs } = this;
    return sendStream(reply, stream, format, {
      ledger,
      state,
      abort,
      request,
      disconnectRead,
      sendTimeoutMs,
    });
  }
}
