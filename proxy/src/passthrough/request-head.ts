import { ownCopy } from '../db/spend-log-row.js';
import { ProxyError } from '../http/proxy-error.js';
import { decodeString, topLevelMembers } from './json-members.js';

/** What a request names, read before it is forwarded. */
export interface RequestHead {
  /** The JSON body's top-level `model` (Anthropic, OpenAI), or the path's `models/<model>` (Gemini). */
  model: string | undefined;
  /** `"stream": true` at the body's top level, or a Gemini `streamGenerateContent` path. */
  stream: boolean;
  /** `stream_options.include_usage` is true: an OpenAI stream's usage chunk was asked for. */
  includeUsage: boolean;
  /** The bytes read so far, to be sent first (a JSON body's: all of it). */
  chunks: Buffer[];
}

const GEMINI_MODEL = /\/models\/([^/:?]{1,256})[:/?]?/;
const MEMBERS = ['model', 'stream', 'stream_options'];

/** Whether a body of this content type is read as JSON (none said: the APIs forwarded take JSON). */
const isJson = (contentType: string | undefined): boolean =>
  contentType === undefined || contentType.toLowerCase().includes('json');

/**
 * Reads what the call is admitted on before anything is forwarded. A JSON body is read whole (at most
 * `limitBytes`) and its top-level members taken, as the target will read them: a `model` is not
 * looked for in the first bytes, where a `metadata.model` would pass for it and a long `messages`
 * (the OpenAI and Anthropic SDKs send it before `model`) would hide it. Other bodies (multipart
 * uploads) are forwarded as they arrive, admitted on the path's model, if any.
 *
 * @throws ProxyError 413 `request_too_large` for a JSON body over `limitBytes`.
 */
export async function readRequestHead(
  body: AsyncIterator<Buffer> | undefined,
  path: string,
  contentType: string | undefined,
  limitBytes: number,
): Promise<RequestHead> {
  const head: RequestHead = {
    model: GEMINI_MODEL.exec(path)?.[1],
    stream: path.includes(':streamGenerateContent'),
    includeUsage: false,
    chunks: [],
  };
  if (head.model !== undefined) head.model = ownCopy(head.model);
  if (!body || !isJson(contentType)) return head;
  let size = 0;
  for (;;) {
    const next = await body.next();
    if (next.done) break;
    size += next.value.length;
    if (size > limitBytes)
      throw new ProxyError(
        413,
        'request_too_large',
        `The request body is over ${limitBytes} bytes (general_settings.max_request_body_mb): a pass-through JSON body is read whole before it is forwarded, to admit the call on its model.`,
      );
    head.chunks.push(next.value);
  }
  // latin1: a character per byte, and the JSON's structure is ASCII; values are decoded as UTF-8
  const members = topLevelMembers(Buffer.concat(head.chunks, size).toString('latin1'), MEMBERS);
  if (!members) return head; // not a JSON object: the target refuses it
  const model = members.get('model');
  if (model?.startsWith('"')) head.model = decodeString(Buffer.from(model, 'latin1').toString('utf8'));
  head.stream ||= members.get('stream') === 'true';
  const options = members.get('stream_options');
  if (options?.startsWith('{'))
    head.includeUsage = topLevelMembers(options, ['include_usage'])?.get('include_usage') === 'true';
  return head;
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
