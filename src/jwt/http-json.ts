/** The identity provider did not answer usefully (network, timeout, 5xx, a body that is not JSON). */
export class IdentityProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityProviderError';
  }
}

/** An answer of the identity provider: its status and, for a 2xx, its JSON object. */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
}

const MAX_BODY_BYTES = 1024 * 1024;

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new IdentityProviderError(`answer larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GETs a JSON object from the identity provider (discovery, UserInfo, OAuth2 token info). Redirects are
 * not followed (a bearer token never travels to a host it was not meant for); the body is bounded to
 * 1 MiB; the whole exchange to `timeoutMs`. A 2xx whose body is not a JSON object, a 5xx, a 3xx, a
 * network failure or a timeout throws {@link IdentityProviderError}; a 4xx resolves with its status.
 */
export async function getJson(
  url: string,
  options: { timeoutMs: number; headers?: Record<string, string> },
): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'GET',
      redirect: 'manual',
      signal,
      headers: { accept: 'application/json', ...options.headers },
    });
  } catch (cause) {
    throw new IdentityProviderError(signal.aborted ? 'timed out' : 'request failed', { cause });
  }
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel();
    return { status: response.status, body: undefined };
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel();
    throw new IdentityProviderError(`answered ${response.status}`);
  }
  let text: string;
  try {
    text = await readBounded(response);
  } catch (cause) {
    throw cause instanceof IdentityProviderError
      ? cause
      : new IdentityProviderError(signal.aborted ? 'timed out' : 'reading the answer failed', { cause });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new IdentityProviderError('answer is not JSON', { cause });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new IdentityProviderError('answer is not a JSON object');
  }
  return { status: response.status, body: body as Record<string, unknown> };
}
