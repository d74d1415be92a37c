import { randomUUID } from 'node:crypto';
import { codecOf, eventstreamCodecPeer } from '../../peers/eventstream-codec.js';
import type { MockExchange, MockFormat } from '../../types/mock-format.js';
import type { MockBehavior } from '../mock-behavior.js';
import { argumentsText, DEFAULT_CONTENT, mockUsage, pieces } from '../mock-text.js';
import { driveStream } from '../stream-driver.js';
import { assistantPrefill, BEDROCK_PREFILL_REFUSAL } from './prefill.js';

const ROUTE = /\/model\/[^/]+\/(converse|converse-stream|invoke)$/;

// Exception type and Bedrock's own message for each status the mock may be told to fail with.
const ERRORS: Readonly<Record<number, readonly [type: string, message: string]>> = {
  400: ['ValidationException', 'Malformed input request, please reformat your input and try again.'],
  401: ['UnrecognizedClientException', 'The security token included in the request is invalid.'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  404: [
    'ResourceNotFoundException',
    'Could not resolve the foundation model from the provided model identifier.',
  ],
  408: ['ModelTimeoutException', 'Model has timed out in processing the request. Try your request again.'],
  424: ['ModelErrorException', 'The model returned an error. Try your request again.'],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an error processing your request.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
};

const utf8 = new TextEncoder();
const str = (value: string) => ({ type: 'string' as const, value });

/**
 * One event-stream message with string headers, encoded by the AWS SDK's codec (the optional
 * `@smithy/eventstream-codec`, loaded when the mock first serves a Bedrock stream).
 */
function encodeMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const codec = codecOf(eventstreamCodecPeer.loadSync("the mock provider's bedrock/ stream"));
  const typed = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, str(value)]));
  return codec.encode({ headers: typed, body: payload });
}
// Bedrock pads every event payload with a `p` field of varying length (so sizes do not leak content)
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const requestBody = (ex: MockExchange) => (ex.request.body ?? {}) as Record<string, unknown>;
const actionOf = (path: string) => ROUTE.exec(path.split('?')[0] ?? path)?.[1];

function json(ex: MockExchange, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  ex.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...headers,
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

/** One binary event-stream frame of a ConverseStream event, with Bedrock's header names. */
function eventFrame(type: string, payload: Record<string, unknown>, n: number): Uint8Array {
  const body = { ...payload, p: PADDING.slice(0, 4 + ((n * 7) % (PADDING.length - 4))) };
  return encodeMessage(
    {
      ':event-type': type,
      ':content-type': 'application/json',
      ':message-type': 'event',
    },
    utf8.encode(JSON.stringify(body)),
  );
}

/** A `contentBlockDelta` event whose payload is not JSON (for `stream.malformedAfter`). */
function malformedFrame(): Uint8Array {
  return encodeMessage(
    {
      ':event-type': 'contentBlockDelta',
      ':content-type': 'application/json',
      ':message-type': 'event',
    },
    utf8.encode('{"delta": {"text": this is not json'),
  );
}

/** An exception frame, as Bedrock sends one inside an HTTP 200 stream (lower camel case type). */
function exceptionFrame(b: MockBehavior): Uint8Array {
  const raw = b.error?.code ?? b.error?.type ?? 'modelStreamErrorException';
  const type = raw.charAt(0).toLowerCase() + raw.slice(1);
  return encodeMessage(
    {
      ':exception-type': type,
      ':content-type': 'application/json',
      ':message-type': 'exception',
    },
    utf8.encode(JSON.stringify({ message: b.error?.message ?? 'Mock stream failure' })),
  );
}

function toolUses(b: MockBehavior) {
  return (b.toolCalls ?? []).map((call, index) => {
    const text = argumentsText(call.arguments);
    let input: unknown = {};
    try {
      input = JSON.parse(text);
    } catch {
      // malformed arguments stay an empty input, as a model's unparsable JSON would
    }
    return {
      toolUseId: call.id ?? `tooluse_${index}_${randomUUID().slice(0, 8)}`,
      name: call.name,
      text,
      input,
    };
  });
}

const signatureOf = (b: MockBehavior) =>
  b.signature ?? Buffer.from(`mock-signature:${b.reasoning ?? ''}`).toString('base64');
const contentOf = (b: MockBehavior) => b.content ?? (b.toolCalls ? '' : DEFAULT_CONTENT);

function usageOf(b: MockBehavior, content: string) {
  const { prompt_tokens, completion_tokens } = mockUsage(b, content);
  return {
    inputTokens: prompt_tokens,
    outputTokens: completion_tokens,
    totalTokens: prompt_tokens + completion_tokens,
  };
}

/** A Converse answer: reasoning, text and toolUse blocks, stop reason, usage and metrics. */
function converse(ex: MockExchange) {
  const b = ex.behavior;
  const content: Array<Record<string, unknown>> = [];
  if (b.reasoning !== undefined)
    content.push({ reasoningContent: { reasoningText: { text: b.reasoning, signature: signatureOf(b) } } });
  if (b.redactedReasoning !== undefined)
    content.push({ reasoningContent: { redactedContent: b.redactedReasoning } });
  const text = contentOf(b);
  if (text) content.push({ text });
  const tools = toolUses(b);
  for (const { toolUseId, name, input } of tools) content.push({ toolUse: { toolUseId, name, input } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: tools.length > 0 ? 'tool_use' : 'end_turn',
    usage: usageOf(b, text),
    metrics: { latencyMs: 42 },
  };
}

/** The ConverseStream events before the terminal ones, one content block after another. */
function streamEvents(b: MockBehavior): Array<[string, Record<string, unknown>]> {
  const events: Array<[string, Record<string, unknown>]> = [['messageStart', { role: 'assistant' }]];
  let block = 0;
  const delta = (value: Record<string, unknown>) =>
    events.push(['contentBlockDelta', { contentBlockIndex: block, delta: value }]);
  const stop = () => events.push(['contentBlockStop', { contentBlockIndex: block++ }]);
  if (b.reasoning !== undefined) {
    for (const piece of pieces(b.reasoning)) delta({ reasoningContent: { text: piece } });
    delta({ reasoningContent: { signature: signatureOf(b) } });
    stop();
  }
  if (b.redactedReasoning !== undefined) {
    delta({ reasoningContent: { redactedContent: b.redactedReasoning } });
    stop();
  }
  const text = contentOf(b);
  if (text) {
    for (const piece of pieces(text)) delta({ text: piece });
    stop();
  }
  for (const { toolUseId, name, text: args } of toolUses(b)) {
    events.push(['contentBlockStart', { contentBlockIndex: block, start: { toolUse: { toolUseId, name } } }]);
    const half = Math.ceil(args.length / 2);
    for (const piece of [args.slice(0, half), args.slice(half)])
      if (piece) delta({ toolUse: { input: piece } });
    stop();
  }
  return events;
}

async function converseStream(ex: MockExchange): Promise<void> {
  const b = ex.behavior;
  const events = streamEvents(b);
  const terminal: Array<[string, Record<string, unknown>]> = [
    ['messageStop', { stopReason: b.toolCalls?.length ? 'tool_use' : 'end_turn' }],
    ['metadata', { usage: usageOf(b, contentOf(b)), metrics: { latencyMs: 42 } }],
  ];
  await driveStream(ex, {
    contentType: 'application/vnd.amazon.eventstream',
    frames: events.map(([type, payload], n) => eventFrame(type, payload, n)),
    terminal: terminal.map(([type, payload], n) => eventFrame(type, payload, events.length + n)),
    errorFrame: exceptionFrame(b),
    malformedFrame: malformedFrame(),
  });
}

function vector(dims: number, seed: number): number[] {
  return Array.from({ length: dims }, (_, i) => Number(((seed + 1) * (i + 1) * 0.01).toFixed(4)));
}

/** InvokeModel for embeddings: Titan (`inputText`) or Cohere (`texts`). */
function invoke(ex: MockExchange): void {
  const body = requestBody(ex);
  const dims = ex.behavior.dimensions ?? 8;
  if (typeof body.inputText === 'string') {
    // differs with the text, as a real embedding does
    const embedding = vector(
      typeof body.dimensions === 'number' ? body.dimensions : dims,
      body.inputText.length,
    );
    const inputTextTokenCount = Math.max(1, Math.ceil(body.inputText.length / 4));
    json(ex, 200, { embedding, embeddingsByType: { float: embedding }, inputTextTokenCount });
    return;
  }
  if (Array.isArray(body.texts)) {
    const embeddings = body.texts.map((_, i) => vector(dims, i));
    json(ex, 200, { embeddings, id: randomUUID(), response_type: 'embeddings_floats', texts: body.texts });
    return;
  }
  bedrockFormat.writeError(
    { ...ex, behavior: { error: { message: 'mock provider: /invoke serves Titan and Cohere embeddings' } } },
    400,
  );
}

/**
 * The Amazon Bedrock runtime format: Converse (`/model/{id}/converse`), ConverseStream
 * (`/model/{id}/converse-stream`, binary `application/vnd.amazon.eventstream` frames ending in
 * `messageStop` + `metadata`; `stream.errorAfter` sends an exception frame) and InvokeModel embeddings
 * (`/model/{id}/invoke`, Titan and Cohere). Errors answer with the status, `x-amzn-errortype` and
 * `{ message }`.
 */
export const bedrockFormat: MockFormat = {
  name: 'bedrock',
  prefill: { of: assistantPrefill, refusal: BEDROCK_PREFILL_REFUSAL },
  handles: (method, path) => method === 'POST' && actionOf(path) !== undefined,
  writeError(ex, status) {
    const [type, message] = ERRORS[status] ?? [
      'InternalServerException',
      `Mock failure with status ${status}`,
    ];
    const errorType = ex.behavior.error?.code ?? ex.behavior.error?.type ?? type;
    json(
      ex,
      status,
      { message: ex.behavior.error?.message ?? message },
      { 'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
    );
  },
  async respond(ex) {
    const action = actionOf(ex.request.path);
    if (action === 'converse-stream') await converseStream(ex);
    else if (action === 'invoke') invoke(ex);
    else json(ex, 200, converse(ex));
  },
};
