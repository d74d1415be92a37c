import { ownCopy } from '../db/spend-log-row.js';
import { ProxyError } from '../http/proxy-error.js';
import { decodeString, type Member, topLevelMembers } from './json-members.js';

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

/**
 * The most of a JSON body held to read its model: `max_request_body_mb`, and never less than the
 * providers' own request limits (Anthropic's 32 MB), so that a request with images or documents that
 * the target takes is not refused here.
 */
export const MIN_PASS_THROUGH_BODY_BYTES = 32 * 1024 * 1024;

const GEMINI_MODEL = /\/models\/([^/:?]{1,256})[:/?]?/;
const MEMBERS = ['model', 'stream', 'stream_options'];
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const OPEN_BRACE = 123;

const refuse = (message: string) => new ProxyError(400, 'invalid_request', message);

const tooLarge = (limitBytes: number) =>
  new ProxyError(
    413,
    'request_too_large',
    `The request body is over ${limitBytes} bytes: a pass-through JSON body is read whole before it is forwarded, to admit the call on its model (general_settings.max_request_body_mb, at least 32 MB here).`,
  );

/** Bytes that may come before a JSON text's `{`: white space, and a UTF-8 byte-order mark's. */
const LEADING = new Set([32, 9, 10, 13, ...UTF8_BOM]);

/**
 * Tells, a read at a time, how a body starts (the reads' sizes are the client's to choose): `json`
 * when, past white space and a UTF-8 byte-order mark, it opens an object, whatever its content type
 * says (many servers parse a body as JSON however it is labelled); `wide` when it is JSON in UTF-16 or
 * UTF-32 (a zero byte and a `{` among its first four, as RFC 4627 tells them apart), which JSON
 * between systems may not be (RFC 8259) and the scan cannot read; else `other`. Undefined until it can tell.
 */
class BodyStart {
  #first = Buffer.alloc(0);

  next(read: Buffer): 'json' | 'wide' | 'other' | undefined {
    if (this.#first.length < 4)
      this.#first = Buffer.concat([this.#first, read.subarray(0, 4 - this.#first.length)]);
    if (this.#first.includes(0)) {
      if (this.#first.includes(OPEN_BRACE)) return 'wide';
      return this.#first.length < 4 ? undefined : 'other';
    }
    for (const byte of read) if (!LEADING.has(byte)) return byte === OPEN_BRACE ? 'json' : 'other';
    return undefined;
  }
}

/** The one top-level `model`: a repeated one (or one in another case) would be read by targets differently. */
function modelOf(members: Member[] | undefined): string | undefined {
  if (!members) return undefined;
  if (members.length > 1)
    throw refuse(
      `The body names its model more than once (${members.map((m) => `\`${m.name}\``).join(', ')}): name it once, as \`model\`.`,
    );
  const [{ name, value }] = members as [Member];
  if (name !== 'model') throw refuse(`\`${name}\`: name the model \`model\`.`);
  return value.startsWith('"') ? decodeString(value) : undefined;
}

/**
 * Reads what the call is admitted on before anything is forwarded. A Gemini path names the model: the
 * body streams on unread. Otherwise a body that is a JSON object (`bodyKind`) is read whole (at most
 * `limitBytes`) and its top-level members taken as the target will read them: a `model` is not
 * looked for in the first bytes, where a `metadata.model` would pass for it and a long `messages`
 * (the OpenAI and Anthropic SDKs write it before `model`) would hide it. Other bodies (multipart and
 * binary uploads) are forwarded as they arrive; the call is admitted on the endpoint's path.
 *
 * @throws ProxyError 413 `request_too_large` for a JSON body over `limitBytes`; 400 for JSON the
 * gateway cannot read as the target would (UTF-16, a repeated `model`), and 415 for a compressed body.
 */
export async function readRequestHead(
  body: AsyncIterator<Buffer> | undefined,
  path: string,
  headers: { 'content-type'?: string | undefined; 'content-encoding'?: string | undefined },
  limitBytes: number,
): Promise<RequestHead> {
  const pathModel = GEMINI_MODEL.exec(path)?.[1];
  const head: RequestHead = {
    model: pathModel === undefined ? undefined : ownCopy(pathModel),
    stream: path.includes(':streamGenerateContent'),
    includeUsage: false,
    chunks: [],
  };
  const mediaType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!body || pathModel !== undefined || mediaType.startsWith('multipart/')) return head;
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity')
    throw new ProxyError(
      415,
      'unsupported_content_encoding',
      `A pass-through request body is read for its model before it is forwarded: send it uncompressed (not \`content-encoding: ${encoding}\`).`,
    );
  const start = new BodyStart();
  let size = 0;
  for (let kind: ReturnType<BodyStart['next']>; kind !== 'json'; ) {
    const next = await body.next();
    if (next.done) return head;
    head.chunks.push(next.value);
    size += next.value.length;
    kind = start.next(next.value);
    if (kind === 'wide') throw refuse('The body is JSON in UTF-16 or UTF-32: send it as UTF-8.');
    if (kind === 'other') return head;
    if (size > limitBytes) throw tooLarge(limitBytes);
  }
  for (;;) {
    const next = await body.next();
    if (next.done) break;
    head.chunks.push(next.value);
    size += next.value.length;
    if (size > limitBytes) throw tooLarge(limitBytes);
  }
  // one buffer, forwarded as it is: the pieces are not kept beside it
  const whole = Buffer.concat(head.chunks, size);
  head.chunks = [whole];
  const bom = whole[0] === UTF8_BOM[0] && whole[1] === UTF8_BOM[1] && whole[2] === UTF8_BOM[2] ? 3 : 0;
  const members = topLevelMembers(whole.subarray(bom), MEMBERS);
  if (!members) return head; // not one JSON object: the target refuses it
  head.model = modelOf(members.get('model'));
  head.stream = members.get('stream')?.at(-1)?.value === 'true';
  const options = members.get('stream_options')?.at(-1)?.value;
  if (options?.startsWith('{'))
    head.includeUsage =
      topLevelMembers(Buffer.from(options), ['include_usage'])?.get('include_usage')?.at(-1)?.value ===
      'true';
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
