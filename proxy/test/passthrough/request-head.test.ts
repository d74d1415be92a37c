import { describe, expect, it } from 'vitest';
import { readRequestHead } from '../../src/passthrough/request-head.js';

const LIMIT = 1024 * 1024;

/** A body arriving in these reads. */
function reads(...parts: Array<string | Buffer>): AsyncIterator<Buffer> {
  return (async function* () {
    for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part);
  })();
}

const head = (body: AsyncIterator<Buffer>, path = '/v1/messages', headers = {}) =>
  readRequestHead(body, path, { 'content-type': 'application/json', ...headers }, LIMIT);

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

  it('takes the model a Gemini path names, and leaves the body unread', async () => {
    const read = await head(reads('{"model":"decoy"}'), '/v1beta/models/gemini-2.5-pro:generateContent');
    expect([read.model, read.chunks]).toEqual(['gemini-2.5-pro', []]);
  });

  it('leaves a body that is not a JSON object unread (a binary upload)', async () => {
    const read = await head(reads('%PDF-1.7 ...', '{"model":"x"}'), '/upload', {
      'content-type': 'application/pdf',
    });
    expect(read.model).toBeUndefined();
    expect(read.chunks.map(String)).toEqual(['%PDF-1.7 ...']);
  });

  it('refuses a model named twice, or in another case, which targets may read either way', async () => {
    await expect(head(reads('{"model":"a","model":"b"}'))).rejects.toThrow(/names its model more than once/);
    await expect(head(reads('{"model":"a","MODEL":"b"}'))).rejects.toThrow(/`model`, `MODEL`/);
    await expect(head(reads('{"Model":"a"}'))).rejects.toThrow(/`Model`: name the model `model`/);
  });

  it('refuses JSON in UTF-16, and a compressed body, which it cannot read for the model', async () => {
    const utf16 = Buffer.from('{"model":"x"}', 'utf16le');
    await expect(head(reads(utf16))).rejects.toMatchObject({ status: 400 });
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
