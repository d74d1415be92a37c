/** The headers a caller may present a key in (CONTRACT 5.6). */
export interface CredentialHeaders {
  authorization?: string | string[] | undefined;
  'x-api-key'?: string | string[] | undefined;
  'x-goog-api-key'?: string | string[] | undefined;
}

/**
 * The key a request presents: `Authorization: Bearer <key>`, else `x-api-key: <key>` (what the
 * Anthropic SDK sends), else `x-goog-api-key: <key>` (what Google's SDKs and the Gemini CLI send).
 * Undefined when none is there.
 */
export function presentedKey(headers: CredentialHeaders): string | undefined {
  const authorization = single(headers.authorization);
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1]!.trim();
  }
  const apiKey = single(headers['x-api-key'])?.trim() || single(headers['x-goog-api-key'])?.trim();
  return apiKey || undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
