import { describe, expect, it } from 'vitest';
import { readRequestHead } from '../../src/passthrough/request-head.js';

const LIMIT = 1024 * 1024;

/** A body arriving in these reads. */
function reads(...parts: Array<string | Buffer>): AsyncIterator<Buffer> {
  return (async function* () {
    for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part);
  })();
}

const head = (body: AsyncIterator<Buffer>, path = '/v1/messages', headers = {}, provider = 'anthropic') =>
  readRequestHead(
    body,
    path,
    { 'content-type': 'application/json', ...headers },
    { limitBytes: LIMIT, provider },
  );

describe('readRequestHead', () => {
  it('reads the model of a JSON body however its reads are cut, white space first included', async () => {
    const parts = [' ', '\n ', '{"messages":[{"role":"user","content":"hi"}],', '"model":"claude-x"}'];
    const read = await head(reads(...parts));
    expect(read.model).toBe('claude-x');
    expect(Buffer.concat(read.chunks).toString()).toBe(parts.join(''));
  });

  it('reads a JSON body whatever its content type says, past a UTF-8 byte-order mark', async () => {
    const text = await head(reads('{"model":"a"}'), '/v1/messages', { 'content-type': 'text/plain' });
    const bom = await head(reads(Buffer.from([0xef, 0xbb, 0xbf]), '{"model":"b"}'));
    expect([text.model, bom.model]).toEqual(['a', 'b']);
  });

  it('takes the model a Gemini path names, and leaves the body unread, on a gemini endpoint only', async () => {
    const path = '/v1beta/models/gemini-2.5-pro:generateContent';
    const gemini = await head(reads('{"model":"decoy"}'), path, {}, 'gemini');
    expect([gemini.model, gemini.chunks]).toEqual(['gemini-2.5-pro', []]);
    expect(
      (await head(reads('{"model":"m"}'), '/v1/models/x/../../chat/completions', {}, 'openai')).model,
    ).toBe('m');
  });

  it('leaves a binary upload that starts with zero bytes unread (an MP4)', async () => {
    const mp4 = Buffer.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);
    const read = await head(reads(mp4), '/upload', { 'content-type': 'video/mp4' });
    expect([read.model, read.chunks]).toEqual([undefined, [mp4]]);
  });

  it('leaves a body that is not a JSON object unread (a binary upload)', async () => {
    const read = await head(reads('%PDF-1.7 ...', '{"model":"x"}'), '/upload', {
      'content-type': 'application/pdf',
    });
    expect(read.model).toBeUndefined();
    expect(read.chunks.map(String)).toEqual(['%PDF-1.7 ...']);
  });

  it('refuses a model, stream or include_usage named twice, or in another case, which targets may read either way', async () => {
    await expect(head(reads('{"model":"a","model":"b"}'))).rejects.toThrow(/names `model` more than once/);
    await expect(head(reads('{"model":"a","MODEL":"b"}'))).rejects.toThrow(/`model`, `MODEL`/);
    await expect(head(reads('{"Model":"a"}'))).rejects.toThrow(/`Model`: write it `model`/);
    await expect(head(reads('{"model":"a","stream":true,"Stream":false}'))).rejects.toThrow(/`stream`/);
    const options =
      '{"model":"a","stream":true,"stream_options":{"include_usage":false,"Include_Usage":true}}';
    await expect(head(reads(options))).rejects.toThrow(/`include_usage`/);
  });

  it('refuses a model that is not a string of 1 to 256 characters', async () => {
    for (const model of ['null', '""', '7', '["a"]', JSON.stringify('m'.repeat(257))])
      await expect(head(reads(`{"model":${model}}`))).rejects.toMatchObject({ status: 400 });
  });

  it('takes any stream but false and null as a stream, and include_usage only as the literal true', async () => {
    const read = async (body: string) => {
      const { stream, includeUsage } = await head(reads(body));
      return [stream, includeUsage];
    };
    expect(await read('{"model":"a","stream":1}')).toEqual([true, false]);
    expect(await read('{"model":"a","stream":"true","stream_options":{"include_usage":1}}')).toEqual([
      true,
      false,
    ]);
    expect(await read('{"model":"a","stream":null}')).toEqual([false, false]);
    expect(await read('{"model":"a","stream":true,"stream_options":{"include_usage":true}}')).toEqual([
      true,
      true,
    ]);
  });

  it('takes any background but false and null as a background response', async () => {
    const background = async (body: string) => (await head(reads(body))).background;
    expect(await background('{"model":"a","background":true}')).toBe(true);
    expect(await background('{"model":"a","background":"yes"}')).toBe(true);
    expect(await background('{"model":"a","background":false}')).toBe(false);
    expect(await background('{"model":"a"}')).toBe(false);
    await expect(head(reads('{"model":"a","background":false,"Background":true}'))).rejects.toThrow(
      /`background`/,
    );
  });

  it('refuses a body that opens an object but is not one whole JSON object (trailing data)', async () => {
    await expect(head(reads('{"model":"a"} {"model":"b"}'))).rejects.toMatchObject({ status: 400 });
  });

  it('refuses JSON in UTF-16 however it starts and is cut, and a compressed body', async () => {
    const utf16 = Buffer.from('{"model":"x"}', 'utf16le');
    await expect(head(reads(utf16))).rejects.toMatchObject({ status: 400 });
    await expect(head(reads(Buffer.from('  {"model":"x"}', 'utf16le')))).rejects.toMatchObject({
      status: 400,
    });
    await expect(head(reads(utf16.subarray(0, 1), utf16.subarray(1)))).rejects.toMatchObject({ status: 400 });
    const bom16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' {"model":"x"}', 'utf16le')]);
    await expect(head(reads(bom16))).rejects.toMatchObject({ status: 400 });
    const utf32be = Buffer.from([0, 0, 0, 0x20, 0, 0, 0, 0x7b, 0, 0, 0, 0x7d]);
    await expect(head(reads(utf32be))).rejects.toMatchObject({ status: 400 });
    await expect(head(reads('...'), '/v1/messages', { 'content-encoding': 'gzip' })).rejects.toMatchObject({
      status: 415,
      code: 'unsupported_content_encoding',
    });
  });

  it('refuses a JSON body over the limit, and a run of white space as long', async () => {
    await expect(head(reads('{"model":"x","pad":"', 'x'.repeat(LIMIT), '"}'))).rejects.toMatchObject({
      status: 413,
    });
    await expect(head(reads(' '.repeat(LIMIT), ' '))).rejects.toMatchObject({ status: 413 });
  });
});
