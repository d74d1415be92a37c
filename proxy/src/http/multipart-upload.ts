import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { ProxyError } from './proxy-error.js';

/** The most a file that comes before `model` is held in memory: OpenAI's own upload limit. */
export const HELD_UPLOAD_LIMIT = 25 * 1024 * 1024;

/**
 * The most text fields, and bytes in one, that a multipart request may send. OpenAI's transcription
 * takes about ten short ones; the bounds keep a request (read before its caller is known: the
 * model is among them) from holding more than a few MB of fields.
 */
export const FIELD_LIMITS = { fields: 64, fieldBytes: 64 * 1024 };

/** A multipart request read up to its file: the text fields so far and the file. */
export interface Upload {
  fields: Record<string, string>;
  /** The file part: a stream when `model` came before it, else its bytes (read whole, bounded). */
  file: { data: Readable | Uint8Array; filename: string; contentType: string } | undefined;
}

/**
 * Reads a `multipart/form-data` request with busboy as it arrives. The text fields before the file are
 * collected; when `model` is among them the file is handed on as a stream at once (never held whole);
 * when the file comes first it is held (at most `HELD_UPLOAD_LIMIT`) until the fields after it name the
 * model. Fields after a streamed file are not read (clients put the file last, as the openai SDK does for
 * a stream). Resolves with the first file part, or at the end when there is none.
 *
 * @throws ProxyError 400 for a body that is not valid multipart, 413 for a held file over the limit.
 */
export function readUpload(raw: IncomingMessage): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let settled = false;
    let held: { chunks: Buffer[]; size: number; filename: string; contentType: string } | undefined;
    const done = (upload: Upload) => {
      if (!settled) resolve(upload);
      settled = true;
    };
    const fail = (error: Error) => {
      if (!settled) reject(error);
      settled = true;
      raw.unpipe();
      raw.resume();
    };
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: raw.headers as never,
        limits: {
          files: 1,
          fields: FIELD_LIMITS.fields,
          parts: FIELD_LIMITS.fields + 1,
          fieldSize: FIELD_LIMITS.fieldBytes,
        },
      });
    } catch (error) {
      reject(
        new ProxyError(
          400,
          'invalid_request',
          `The multipart body cannot be read: ${(error as Error).message}`,
        ),
      );
      return;
    }
    const tooLarge = (what: string) =>
      fail(new ProxyError(413, 'request_too_large', `The multipart body has ${what}.`));
    parser.on('field', (name: string, value: string, _nameCut: boolean, valueCut: boolean) => {
      if (valueCut) tooLarge(`a field over ${FIELD_LIMITS.fieldBytes} bytes (\`${name}\`)`);
      else fields[name] = value;
    });
    // busboy drops what is past its limits without a word: a request cut short is refused instead
    const overCount = () => tooLarge(`more than ${FIELD_LIMITS.fields} fields`);
    parser.on('fieldsLimit', overCount);
    parser.on('partsLimit', overCount);
    parser.on(
      'file',
      (_name: string, stream: Readable, filename: string, _encoding: string, mime: string) => {
        const contentType = mime || 'application/octet-stream';
        if (fields.model !== undefined) {
          done({ fields: { ...fields }, file: { data: stream, filename, contentType } });
          return;
        }
        held = { chunks: [], size: 0, filename, contentType };
        stream.on('data', (chunk: Buffer) => {
          held!.size += chunk.length;
          if (held!.size > HELD_UPLOAD_LIMIT)
            fail(
              new ProxyError(
                413,
                'request_too_large',
                `A file sent before \`model\` is held until the model is known, up to ${HELD_UPLOAD_LIMIT} bytes; send \`model\` first to stream a larger one.`,
              ),
            );
          else held!.chunks.push(chunk);
        });
      },
    );
    parser.on('finish', () => {
      const file = held && {
        data: new Uint8Array(Buffer.concat(held.chunks)),
        filename: held.filename,
        contentType: held.contentType,
      };
      done({ fields, file });
    });
    parser.on('error', (error: Error) =>
      fail(new ProxyError(400, 'invalid_request', `The multipart body cannot be read: ${error.message}`)),
    );
    raw.pipe(parser);
  });
}
