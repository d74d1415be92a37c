import type { ChatCompletion, ChatCompletionRequest, Usage, WithHiddenParams } from '../types/index.js';
import { type Call, type Routed, withAttempts } from './call.js';
import type { CallControl } from './call-control.js';
import { completedResult, streamResult } from './call-results.js';
import type { ChatCompletionStream } from './chat-stream.js';
import type { OpenedStream } from './executor.js';
import {
  checkMode,
  isStreamedFile,
  MEDIA_MODES,
  type MediaKind,
  mediaResult,
  OneShotUpload,
  ofMode,
} from './media-calls.js';
import type { RouterConfig } from './router-config.js';
import type { RouterRuntime } from './runtime.js';
import { type CallStart, type RoutableRequest, type Run, startCall } from './start-call.js';
import { type ResumeDeps, resumableStream } from './stream-resume/resumable-stream.js';
import { resumeDeps } from './stream-resume/resume-deps.js';
import { type RequestKind, validateRequest } from './validate-request.js';

/**
 * Runs the Router's calls down the call path of the config in force: validates the request, starts the
 * call, hands it to the config's handler and shapes the result (a completed answer, a stream, media);
 * a failure is recorded (attempts, an alert) before it is thrown. The Router's public methods are one
 * line each over it.
 */
export class CallRunner {
  readonly #runtime: RouterRuntime;
  readonly #config: () => RouterConfig;
  readonly #closed: () => boolean;

  constructor(runtime: RouterRuntime, config: () => RouterConfig, closed: () => boolean) {
    this.#runtime = runtime;
    this.#config = config;
    this.#closed = closed;
  }

  async chat(
    request: ChatCompletionRequest,
    control: CallControl | undefined,
    asyncEntry: boolean,
  ): Promise<WithHiddenParams<ChatCompletion> | ChatCompletionStream> {
    validateRequest('chat', request);
    // the call's failure is recorded in this frame's own catch: a handler on the layers' promise
    // would cost every call a turn
    if (request.stream) {
      const call = this.#call('chat', request, control, true, asyncEntry, this.#runtime.runs.chatStream);
      let routed: Routed<OpenedStream>;
      try {
        routed = await this.#config().handler(call);
      } catch (err) {
        throw this.#failed(call, err);
      }
      const stream = streamResult(routed, control?.signal, this.#runtime);
      if (!this.#config().settings.stream_resume) return stream;
      const deps = this.#resumeDeps(control, asyncEntry);
      return resumableStream(stream, routed, { request, signal: control?.signal }, deps);
    }
    const call = this.#call('chat', request, control, false, asyncEntry, this.#runtime.runs.chat);
    let routed: Routed<ChatCompletion>;
    try {
      routed = await this.#config().handler(call);
    } catch (err) {
      throw this.#failed(call, err);
    }
    return completedResult(routed, routed.result.usage);
  }

  async json<B extends RoutableRequest, T extends object>(
    kind: RequestKind,
    request: B,
    control: CallControl | undefined,
    asyncEntry: boolean,
    run: Run<B, T>,
  ): Promise<WithHiddenParams<T>> {
    validateRequest(kind, request);
    const call = this.#call(kind, request, control, false, asyncEntry, run);
    let routed: Routed<T>;
    try {
      routed = await this.#config().handler(call);
    } catch (err) {
      throw this.#failed(call, err);
    }
    return completedResult(routed, (routed.result as { usage?: Partial<Usage> }).usage);
  }

  /** A call served only by deployments of its kind's mode (media-calls.ts). */
  async media<B extends RoutableRequest, T extends object>(
    kind: MediaKind,
    request: B,
    control: CallControl | undefined,
    run: Run<B, T>,
  ): Promise<WithHiddenParams<T>> {
    validateRequest(kind, request);
    let body: B = request;
    let spent: (() => boolean) | undefined;
    if (kind === 'transcription' && isStreamedFile(request.file)) {
      const upload = new OneShotUpload(request.file);
      body = { ...request, file: upload };
      spent = () => upload.started;
    }
    // an upload is not hashed for a cache key, nor is a stream of audio cached
    if (kind === 'transcription' || kind === 'speech') body = { ...body, caching: false };
    const call = this.#call(kind, body, control, false, true, run, {
      eligible: ofMode(MEDIA_MODES[kind]),
      spent,
    });
    checkMode(call.group, kind);
    let routed: Routed<T>;
    try {
      routed = await this.#config().handler(call);
    } catch (err) {
      throw this.#failed(call, err);
    }
    return mediaResult(kind, routed, body);
  }

  /** A new call under the config in force. @throws when the router is closed or the model unknown. */
  #call<B extends RoutableRequest, T>(
    kind: RequestKind,
    request: B,
    control: CallControl | undefined,
    stream: boolean,
    asyncEntry: boolean,
    run: Run<B, T>,
    only?: Pick<CallStart<B, T>, 'eligible' | 'spent'>,
  ): Call<T> {
    if (this.#closed()) throw new Error('Router is closed');
    const start = {
      kind,
      request,
      signal: control?.signal,
      allowModel: control?.allowModel,
      stream,
      asyncEntry,
      pricedOnly: control?.pricedOnly === true,
      onAbortedAttempt: control?.onAbortedAttempt,
      run,
      ...only,
    };
    return startCall(start, this.#config(), this.#runtime.now());
  }

  /** Records a call's failure (its attempts, an alert); returns the error to throw. */
  #failed(call: Call<unknown>, err: unknown): unknown {
    this.#runtime.callFailed(call, withAttempts(call, err));
    return err;
  }

  /** What a stream needs to be continued elsewhere when it breaks (`stream_resume`, docs/resilience.md). */
  #resumeDeps(control: CallControl | undefined, asyncEntry: boolean): ResumeDeps {
    return resumeDeps(this.#config().settings.stream_resume_max, this.#runtime, control?.signal, {
      start: (next) => this.#call('chat', next, control, true, asyncEntry, this.#runtime.runs.chatStream),
      handler: () => this.#config().handler,
      emit: (event) => this.#runtime.emit('fallback', () => event),
    });
  }
}
