import { MAX_MODEL_CHARS } from '@svc/router';
import { ownCopy } from '../db/spend-log-row.js';
import { ProxyError } from '../http/proxy-error.js';
import { decodeString, isSpace, type Member, OPEN_BRACE, topLevelMembers } from './json-members.js';

/** What a request names, read before it is forwarded. */
export interface RequestHead {
  /** The JSON body's top-level `model` (Anthropic, OpenAI), or the path's `models/<model>` (Gemini). */
  model: string | undefined;
  /** A top-level `stream` but `false` or `null`, or a Gemini `streamGenerateContent` path. */
  stream: boolean;
  /** `stream_options.include_usage` is true: an OpenAI stream's usage chunk was asked for. */
  includeUsage: boolean;
  /** A top-level `background` but `false` or `null`: an OpenAI response run after it is answered. */
  background: boolean;
  /** The bytes read so far, to be sent first (a JSON body's: all of it). */
  chunks: Buffer[];
  /** The body is a JSON object, read whole: `chunks` holds it, as one buffer. */
  json: boolean;
}

/**
 * The most of a JSON body held to read its model: `max_request_body_mb`, and never less than the
 * providers' own request limits (Anthropic's 32 MB), so that a request with images or documents that
 * the target takes is not refused here.
 */
export const MIN_PASS_THROUGH_BODY_BYTES = 32 * 1024 * 1024;

// `/v1beta/models/<model>:generateContent`, or Vertex's `.../publishers/google/models/<model>:...`
const GEMINI_MODEL =
  /^\/v1(?:alpha|beta\d*)?\/(?:projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+\/)?models\/([A-Za-z0-9._-]{1,256}):[A-Za-z]+$/;
const MEMBERS = ['model', 'stream', 'stream_options', 'background'];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

const refuse = (message: string) => new ProxyError(400, 'invalid_request', message);

const tooLarge = (limitBytes: number) =>
  new ProxyError(
    413,
    'request_too_large',
    `The request body is over ${limitBytes} bytes: a pass-through JSON body is read whole before it is forwarded, to admit the call on its model (general_settings.max_request_body_mb, at least 32 MB here).`,
  );

/**
 * JSON in UTF-16 or UTF-32 (RFC 4627 tells them apart by where the zero bytes are): the place of the
 * character's byte in each unit, and the byte-order mark the form may start with.
 */
const WIDE_FORMS = [
  { unit: 2, at: 0, bom: [0xff, 0xfe] },
  { unit: 2, at: 1, bom: [0xfe, 0xff] },
  { unit: 4, at: 0, bom: [0xff, 0xfe, 0, 0] },
  { unit: 4, at: 3, bom: [0, 0, 0xfe, 0xff] },
];

const startsWith = (bytes: Buffer, prefix: readonly number[]): boolean =>
  prefix.every((byte, i) => bytes[i] === byte);

/**
 * Whether `head` reads, in one of the wide forms, as white space then `{`: true, false, or undefined
 * while it is all white space so far (a binary upload that starts with zero bytes, an MP4's, is not).
 */
function wideJson(head: Buffer): boolean | undefined {
  let undecided = false;
  for (const { unit, at, bom } of WIDE_FORMS) {
    let i = startsWith(head, bom) ? bom.length : 0;
    let found: boolean | undefined;
    for (; found === undefined && i + unit <= head.length; i += unit) {
      let others = true;
      for (let k = 0; k < unit; k++) if (k !== at && head[i + k] !== 0) others = false;
      const byte = head[i + at]!;
      if (!others) found = false;
      else if (byte === OPEN_BRACE) found = true;
      else if (!isSpace(byte)) found = false;
    }
    if (found) return true;
    if (found === undefined) undecided = true;
  }
  return undecided ? undefined : false;
}

/** Bytes of wide white space read before a `{` at most: past them such a body is taken as wide JSON. */
const WIDE_LOOKAHEAD = 4096;

type Kind = 'json' | 'wide' | 'other';

/**
 * Tells, a read at a time, how a body starts (the reads' sizes are the client's to choose): `wide`
 * when it is JSON in UTF-16 or UTF-32 (`wideJson`), which JSON between systems may not be (RFC 8259)
 * and the scan cannot read, though some targets' parsers do; else, past a UTF-8 byte-order mark at
 * its very start and white space, `json` when it opens an object, whatever its content type says
 * (many servers parse a body as JSON however it is labelled); else `other`. Undefined until it can tell.
 */
class BodyStart {
  #head: Buffer[] = [];
  #headBytes = 0;
  /** Past the first bytes, in UTF-8: looking for the first byte that is not white space. */
  #scanning = false;

  next(read: Buffer): Kind | undefined {
    if (this.#scanning) return this.#scan(read, 0);
    this.#head.push(read);
    this.#headBytes += read.length;
    return this.#headBytes < 4 ? undefined : this.#decide(false);
  }

  /** The body ended before it could tell (a few bytes, or only white space). */
  end(): Kind {
    return (this.#scanning ? undefined : this.#decide(true)) ?? 'other';
  }

  #decide(ended: boolean): Kind | undefined {
    const head = this.#head.length === 1 ? this.#head[0]! : Buffer.concat(this.#head);
    this.#head = [head];
    const first = head.subarray(0, 4);
    if (first.includes(0) || startsWith(first, [0xff, 0xfe]) || startsWith(first, [0xfe, 0xff])) {
      const wide = wideJson(head);
      // white space only so far: more is read, up to a bound (the head is joined at each read)
      if (wide === undefined) return ended ? 'other' : head.length < WIDE_LOOKAHEAD ? undefined : 'wide';
      return wide ? 'wide' : 'other';
    }
    this.#head = [];
    this.#scanning = true;
    return this.#scan(head, startsWith(head, UTF8_BOM) ? 3 : 0);
  }

  #scan(read: Buffer, from: number): Kind | undefined {
    for (let i = from; i < read.length; i++)
      if (!isSpace(read[i])) return read[i] === OPEN_BRACE ? 'json' : 'other';
    return undefined;
  }
}

/**
 * The one top-level member `name`, or undefined: a repeated one, or one in another case (`MODEL`),
 * is refused, since targets read those differently (the first, the last, any case).
 */
function single(members: Map<string, Member[]>, name: string): Member | undefined {
  const found = members.get(name);
  if (!found) return undefined;
  if (found.length > 1)
    throw refuse(
      `The body names \`${name}\` more than once (${found.map((m) => `\`${m.name}\``).join(', ')}): name it once.`,
    );
  const [member] = found as [Member];
  if (member.name !== name) throw refuse(`\`${member.name}\`: write it \`${name}\`.`);
  return member;
}

/** The body's model: a string of at most `MAX_MODEL_CHARS`, else refused (never left for the path). */
function modelOf(members: Map<string, Member[]>): string | undefined {
  const member = single(members, 'model');
  if (!member) return undefined;
  // a character is at most 6 bytes as JSON text (\uXXXX): a longer value is refused unread
  const model =
    member.value.length <= MAX_MODEL_CHARS * 6 + 2 ? decodeString(member.value.toString('utf8')) : undefined;
  if (model === undefined || model === '' || model.length > MAX_MODEL_CHARS)
    throw refuse(`\`model\`: expected a string of 1 to ${MAX_MODEL_CHARS} characters.`);
  return model;
}

/**
 * Whether the body turns `name` on: any value but `false` or `null` (targets read `1`, `"true"` as
 * true): a `stream`, a `background`.
 */
function flagOf(members: Map<string, Member[]>, name: string): boolean {
  const value = single(members, name)?.value.toString('latin1');
  return value !== undefined && value !== 'false' && value !== 'null';
}

/** Whether `stream_options.include_usage` is the literal `true`, said once. */
function includeUsageOf(members: Map<string, Member[]>): boolean {
  const options = single(members, 'stream_options')?.value;
  if (!options || options.length > 4096 || options[0] !== OPEN_BRACE) return false;
  const inner = topLevelMembers(options, ['include_usage']);
  return inner !== undefined && single(inner, 'include_usage')?.value.toString('latin1') === 'true';
}

/**
 * Reads what the call is admitted on before anything is forwarded. On a `provider: gemini` endpoint a
 * `models/<model>:<method>` path names the model: the body streams on unread. Otherwise a body that is a JSON object (`BodyStart`) is read whole (at most
 * `limitBytes`) and its top-level members taken as the target will read them: a `model` is not
 * looked for in the first bytes, where a `metadata.model` would pass for it and a long `messages`
 * (the OpenAI and Anthropic SDKs write it before `model`) would hide it. Other bodies (multipart and
 * binary uploads) are forwarded as they arrive; the call is admitted on the endpoint's path.
 *
 * @throws ProxyError 413 `request_too_large` for a JSON body over `limitBytes`; 400 for JSON the
 * gateway cannot read as the target would (UTF-16, trailing data, a repeated `model`, a `model` that is
 * not a 1-256 character string), and 415 for a compressed body.
 */
export async function readRequestHead(
  body: AsyncIterator<Buffer> | undefined,
  path: string,
  headers: { 'content-type'?: string | undefined; 'content-encoding'?: string | undefined },
  options: { limitBytes: number; provider: string | undefined },
): Promise<RequestHead> {
  const pathModel = options.provider === 'gemini' ? GEMINI_MODEL.exec(path)?.[1] : undefined;
  const head: RequestHead = {
    model: pathModel === undefined ? undefined : ownCopy(pathModel),
    stream: pathModel !== undefined && path.endsWith(':streamGenerateContent'),
    includeUsage: false,
    background: false,
    chunks: [],
    json: false,
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
  let kind: Kind | undefined;
  while (kind === undefined) {
    const next = await body.next();
    if (next.done) {
      kind = start.end();
      break;
    }
    head.chunks.push(next.value);
    size += next.value.length;
    if (size > options.limitBytes) throw tooLarge(options.limitBytes);
    kind = start.next(next.value);
  }
  if (kind === 'wide') throw refuse('The body is JSON in UTF-16 or UTF-32: send it as UTF-8.');
  if (kind === 'other') return head;
  for (;;) {
    const next = await body.next();
    if (next.done) break;
    head.chunks.push(next.value);
    size += next.value.length;
    if (size > options.limitBytes) throw tooLarge(options.limitBytes);
  }
  // one buffer, forwarded as it is: the pieces are not kept beside it
  const whole = head.chunks.length === 1 ? head.chunks[0]! : Buffer.concat(head.chunks, size);
  head.chunks = [whole];
  head.json = true;
  const bom = startsWith(whole, UTF8_BOM) ? 3 : 0;
  const members = topLevelMembers(whole.subarray(bom), MEMBERS);
  // a target may read what the scan cannot (trailing data, a second object): it is not forwarded
  if (!members) throw refuse('The body starts as a JSON object but is not one whole JSON object.');
  head.model = modelOf(members);
  head.stream = flagOf(members, 'stream');
  head.background = flagOf(members, 'background');
  head.includeUsage = includeUsageOf(members);
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
