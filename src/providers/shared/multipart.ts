import { randomUUID } from 'node:crypto';
import type { UploadBody } from '../../types/index.js';

/** One file part of a multipart body. */
export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  data: UploadBody;
}

const encoder = new TextEncoder();

/** A header value in a quoted string: quotes and line breaks escaped as browsers do. */
const quoted = (value: string): string =>
  value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

async function* bytesOf(data: UploadBody): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) yield data;
  else if (data instanceof Blob) yield* data.stream() as unknown as AsyncIterable<Uint8Array>;
  else yield* data;
}

/**
 * A `multipart/form-data` body of text fields then one file part, yielded as the file's bytes arrive:
 * the file is never held whole. (undici's FormData takes only whole Blobs, so it would buffer a
 * streamed upload.) Fields whose value is undefined are left out; objects are sent as JSON.
 */
export function multipartBody(
  fields: Readonly<Record<string, unknown>>,
  file: FilePart,
): { contentType: string; body: AsyncIterable<Uint8Array> } {
  const boundary = `----svc-router-${randomUUID()}`;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      yield encoder.encode(
        `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`,
      );
    }
    yield encoder.encode(
      `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\ncontent-type: ${file.contentType}\r\n\r\n`,
    );
    yield* bytesOf(file.data);
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: body() };
}

/** A body sent as is rather than as JSON (a multipart upload): a class, so no JSON body is mistaken for one. */
export class RawUpload {
  constructor(
    readonly contentType: string,
    readonly body: AsyncIterable<Uint8Array>,
  ) {}
}
