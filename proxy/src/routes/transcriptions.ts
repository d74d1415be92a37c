import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyModel } from '../auth/authenticate.js';
import { readUpload } from '../http/multipart-upload.js';
import { ProxyError } from '../http/proxy-error.js';
import { requestTags, TAGS_HEADER } from '../http/request-tags.js';
import type { ProxyContext } from '../proxy-context.js';
import { callModel } from './model-calls.js';
import { modelCallBody } from './request-body.js';

const MULTIPART = 'multipart/form-data';
// multipart fields are text: these are numbers on OpenAI's wire
const NUMERIC = new Set(['temperature']);

/**
 * `POST /v1/audio/transcriptions`: OpenAI's multipart upload, read with busboy as it arrives. The file is
 * streamed on to the chosen deployment when `model` comes before it (never held whole; such a call gets
 * one attempt once its upload started), held up to 25 MB when it comes first. Authenticated, admitted
 * and charged like any model call; `text`, `srt` and `vtt` formats are answered as text.
 */
export function registerTranscriptionRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  // multipart bodies are left unread: the route reads them as a stream
  app.addContentTypeParser(MULTIPART, (_request, _payload, done) => done(null, undefined));
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (!String(request.headers['content-type'] ?? '').startsWith(MULTIPART))
      throw new ProxyError(
        400,
        'invalid_request',
        'Expected a multipart/form-data body with `file` and `model`.',
      );
    const upload = await readUpload(request.raw);
    const caller = await ctx.authenticate(request, bodyModel(upload.fields));
    if (!upload.file)
      throw new ProxyError(400, 'invalid_request', '`file`: required, the audio to transcribe.');
    const fields: Record<string, unknown> = { ...upload.fields };
    for (const name of NUMERIC) if (fields[name] !== undefined) fields[name] = Number(fields[name]);
    const body = modelCallBody({
      ...fields,
      file: upload.file.data,
      filename: upload.file.filename,
      file_content_type: upload.file.contentType,
    });
    const result = await callModel(ctx, request, reply, {
      caller,
      body,
      route: '/v1/audio/transcriptions',
      invoke: (c, b, control) => c.router.atranscription(b as never, control),
      tags: requestTags(undefined, request.headers[TAGS_HEADER]),
    });
    if (['text', 'srt', 'vtt'].includes(String(fields.response_format)))
      return reply.type('text/plain; charset=utf-8').send((result as { text: string }).text);
    return result;
  };
  app.post('/v1/audio/transcriptions', handler);
  app.post('/audio/transcriptions', handler);
}
