import { ownCopy } from '../db/spend-log-row.js';

/** How much of a request body is read ahead for its model before it is forwarded. */
const MAX_HEAD_BYTES = 64 * 1024;

/** The start of a request body, read before forwarding: what it names, and the bytes read. */
export interface RequestHead {
  /** The body's `model` (Anthropic, OpenAI) or the path's `models/<model>` (Gemini). */
  model: string | undefined;
  /** `"stream": true` in the body, or a Gemini `streamGenerateContent` path. */
  stream: boolean;
  /** The bytes read so far, to be sent first. */
  chunks: Buffer[];
}

const MODEL = /"model"\s*:\s*"([^"\\]{1,256})"/;
const STREAM = /"stream"\s*:\s*true/;
const GEMINI_MODEL = /\/models\/([^/:?]{1,256})[:/?]?/;

/**
 * Reads the start of a body (at most 64 KiB, until its `model` shows) so that the call is admitted on
 * the model it asks for; the rest is not read here: the body is forwarded as it arrives.
 */
export async function readRequestHead(
  body: AsyncIterator<Buffer> | undefined,
  path: string,
): Promise<RequestHead> {
  const chunks: Buffer[] = [];
  let text = '';
  let model = GEMINI_MODEL.exec(path)?.[1];
  if (body && model === undefined) {
    while (text.length < MAX_HEAD_BYTES) {
      const next = await body.next();
      if (next.done) break;
      chunks.push(next.value);
      text += next.value.toString('latin1');
      model = MODEL.exec(text)?.[1];
      if (model !== undefined) break;
    }
  }
  // a copy: a regex capture points into the text it was found in (up to 64 KiB, or the path), and the
  // model outlives the request in its spend row and call record
  return {
    model: model === undefined ? undefined : ownCopy(model),
    stream: STREAM.test(text) || path.includes(':streamGenerateContent'),
    chunks,
  };
}

/** The body to forward: the head already read, then the rest as it arrives. */
export async function* forwardedBody(
  head: readonly Buffer[],
  rest: AsyncIterator<Buffer>,
): AsyncGenerator<Buffer> {
  yield* head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}
