import { ProxyError } from '../http/proxy-error.js';

/** A model call's JSON body: an object naming a `model`; the router validates the rest. */
export interface ModelCallBody {
  model: string;
  stream?: boolean;
  user?: string;
  [field: string]: unknown;
}

/** Checks what the proxy itself needs of a model call's body; throws 400 naming the field. */
export function modelCallBody(body: unknown): ModelCallBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ProxyError(400, 'invalid_request', 'The request body must be a JSON object.');
  }
  const { model, stream, user } = body as Record<string, unknown>;
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ProxyError(
      400,
      'invalid_request',
      '`model`: required, a non-empty string naming a model group.',
    );
  }
  if (stream !== undefined && typeof stream !== 'boolean') {
    throw new ProxyError(400, 'invalid_request', '`stream`: expected a boolean.');
  }
  if (user !== undefined && typeof user !== 'string') {
    throw new ProxyError(400, 'invalid_request', '`user`: expected a string.');
  }
  return body as ModelCallBody;
}
