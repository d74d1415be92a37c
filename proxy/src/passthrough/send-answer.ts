import { PassThrough, type Readable, finished as streamEnded } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type AnswerUsage, catalogCost, type HiddenParams, usageReader } from '@svc/router';
import type { FastifyReply } from 'fastify';
import type { DisconnectRead } from '../config/general-settings.js';
import type { CallAbort } from '../http/call-abort.js';
import { ProxyError } from '../http/proxy-error.js';
import { ReadOn } from '../http/read-on.js';
import { type AnswerEnd, type CallLedger, CLIENT_CLOSED, WHOLE } from '../spend/call-ledger.js';
import { answerTap } from './answer-tap.js';
import type { PassThroughEndpoint } from './settings.js';
import { answerHeaders } from './upstream-headers.js';

/** The target's answer, as undici gives it. */
export interface TargetAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** The call an answer belongs to. */
export interface PassThroughCall {
  endpoint: PassThroughEndpoint;
  ledger: CallLedger;
  abort: CallAbort;
  /** The model the request named, if any. */
  model: string | undefined;
  /**
   * Whether the call costs nothing (a read, a removal, a token count: `pathPricing`): its answer's
   * usage is not read, since a stored response read back carries the usage it was charged for once.
   */
  free: boolean;
  /** How far the answer is read after the client left. */
  disconnectRead: DisconnectRead;
}

/**
 * Sends the target's answer to the client as it comes, reading its usage on the side when the endpoint
 * names its `provider`, and closes the call's books when the reply closes. A client that leaves before
 * the end does not stop the upstream at once when the usage is read: the answer is read on (and
 * dropped) within `disconnectRead`, as chat streams are, so that the row is charged for all of it.
 */
export function sendTargetAnswer(
  reply: FastifyReply,
  answer: TargetAnswer,
  call: PassThroughCall,
): FastifyReply {
  const { endpoint, ledger, abort } = call;
  const provider = endpoint.provider;
  const tap =
    provider && !call.free && answer.statusCode < 400
      ? answerTap(
          usageReader(provider),
          String(answer.headers['content-type'] ?? '').includes('text/event-stream'),
        )
      : undefined;
  let cut: unknown;
  answer.body.once('error', (error) => {
    cut = error;
  });
  const readOn = tap ? new ReadOn(abort, call.disconnectRead) : undefined;
  const toClient = tap ? new PassThrough() : undefined;
  const closed = () => {
    const whole = reply.raw.writableFinished;
    const end: AnswerEnd = cut ? { kind: 'cut', error: cut } : whole ? WHOLE : CLIENT_CLOSED;
    if (!whole && !tap) abort.stopUpstream(new Error('the client closed the connection'));
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
    // a usage that cannot be read (it never should fail) still closes the books: charged nothing
    const usage =
      tap && readOn && toClient
        ? readToEnd(tap, readOn, toClient, whole).catch(() => undefined)
        : Promise.resolve(undefined);
    void usage.then((read) => {
      const model = read?.model ?? call.model ?? endpoint.path;
      const charged = provider && read?.usage ? catalogCost(provider, model, read.usage) : undefined;
      const hidden = {
        model_group: model,
        custom_llm_provider: provider ?? null,
        priced: charged?.priced ?? false,
        cache_hit: false,
      } as unknown as HiddenParams;
      ledger.answered(hidden, { usage: read?.usage, cost: charged?.cost ?? 0, estimated: false }, end);
    });
  };
  // the client may have left while the target answered: Node tells no listener added after the close
  // (told on the next tick, as the event would be, once the answer below is piped)
  if (reply.raw.closed) process.nextTick(closed);
  else reply.raw.once('close', closed);
  reply.code(answer.statusCode).headers(answerHeaders(answer.headers));
  if (!tap || !toClient) return reply.send(answer.body);
  // a cut upstream (an error, or a close before the end) ends the tap with its error, and so the
  // reply (cut) too; the client leaving ends only `toClient`, so that the tap can read on. Piped,
  // with the ends passed on by hand, not pipeline()d: pipeline makes an AbortController per call and
  // aborts it at the end, for which Node builds a DOMException with its stack trace (with it a
  // pass-through call cost 1.3 to 1.9 times the CPU, docs/benchmarks.md)
  streamEnded(answer.body, { writable: false }, (error) => {
    if (error) tap.stage.destroy(error);
  });
  tap.stage.once('close', () => {
    if (!answer.body.readableEnded) answer.body.destroy();
  });
  answer.body.pipe(tap.stage);
  tap.stage.once('error', (error) => toClient.destroy(error));
  tap.stage.pipe(toClient);
  return reply.send(toClient);
}

/** The answer's usage once it has ended: read on after the client left, within `readOn`. */
async function readToEnd(
  tap: ReturnType<typeof answerTap>,
  readOn: ReadOn,
  toClient: PassThrough,
  whole: boolean,
): Promise<AnswerUsage> {
  if (!whole) {
    tap.stage.unpipe(toClient);
    // past the bound, `more` cancels the upstream: the tap ends with that error
    tap.stage.on('data', (chunk: Buffer) => readOn.more(chunk.length));
    tap.stage.resume();
    await finished(tap.stage).catch(() => undefined);
  }
  readOn.stop();
  return tap.usage();
}
