// Credentials that providers or proxies sometimes echo back in error text, with what replaces them.
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, '$1 ****'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, '****'],
  [/([?&](?:key|api_key|api-key|token|sig)=)[^&\s"']+/gi, '$1****'],
  [/\bAKIA[0-9A-Z]{12,}/g, '****'],
];

/**
 * Removes the given secrets and anything shaped like a credential from a message. Applied to every
 * message built from upstream text, so no error, log line or event can carry a key.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('****');
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
