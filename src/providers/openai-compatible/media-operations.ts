import type {
  ModerationResponse,
  RerankResponse,
  TranscriptionRequest,
  TranscriptionResponse,
} from '../../types/index.js';
import { asRecord } from '../shared/json.js';
import { multipartBody, RawUpload } from '../shared/multipart.js';
import type { ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { requiredList, throwMissing } from '../shared/success-body.js';
import type { Post } from './adapter.js';

// transcription formats answered as plain text rather than JSON
const TEXT_FORMATS: ReadonlySet<unknown> = new Set(['text', 'srt', 'vtt']);

/** The request's fields as multipart fields: everything but the file and how it is named. */
function transcriptionFields(request: TranscriptionRequest, target: ProviderTarget): Record<string, unknown> {
  const { file: _file, filename: _name, file_content_type: _type, ...fields } = request;
  return { ...fields, model: target.model };
}

function listAnswer<T>(json: unknown, key: string, target: ProviderTarget): T {
  const body = asRecord(json);
  if (!body) return throwMissing(target, 'a body that is not a JSON object');
  requiredList(body, key, target);
  return body as T;
}

/**
 * OpenAI's `/audio/transcriptions` (multipart, the file streamed as it arrives), `/audio/speech`
 * (answered as bytes), `/moderations`, and Cohere-style `/rerank`.
 */
export function mediaOperations(
  post: Post,
): Pick<ProviderAdapter, 'transcription' | 'speech' | 'moderation' | 'rerank'> {
  return {
    transcription: {
      build: (request, target, call) => {
        const { contentType, body } = multipartBody(transcriptionFields(request, target), {
          name: 'file',
          filename: request.filename ?? 'audio',
          contentType: request.file_content_type ?? 'application/octet-stream',
          data: request.file,
        });
        return post(target, call, 'audio/transcriptions', new RawUpload(contentType, body));
      },
      readsText: (request) => TEXT_FORMATS.has(request.response_format),
      parse: (answer, target, request) => {
        if (TEXT_FORMATS.has(request.response_format)) return { text: answer as string };
        const body = asRecord(answer);
        if (!body || typeof body.text !== 'string') return throwMissing(target, 'no `text`');
        return body as TranscriptionResponse;
      },
    },
    speech: {
      build: (request, target, call) =>
        post(target, call, 'audio/speech', { ...request, model: target.model }),
    },
    moderation: {
      build: (request, target, call) =>
        post(target, call, 'moderations', { ...request, model: target.model }),
      parse: (json, target) => listAnswer<ModerationResponse>(json, 'results', target),
    },
    rerank: {
      build: (request, target, call) => post(target, call, 'rerank', { ...request, model: target.model }),
      parse: (json, target) => {
        const body = listAnswer<RerankResponse>(json, 'results', target);
        // Jina and Cohere agree on `index` and `relevance_score`; anything else a host adds is kept
        return body;
      },
    },
  };
}
