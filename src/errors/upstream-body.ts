import { redactSecrets } from './redact.js';

/** The most of a provider's error body an error keeps, in UTF-16 code units (2 KiB of ASCII). */
export const MAX_UPSTREAM_BODY_CHARS = 2048;

/**
 * A provider's error body as an error keeps it (`upstreamBody`): secrets removed first (so a secret
 * straddling the cut cannot survive in part), then cut to `MAX_UPSTREAM_BODY_CHARS` with a note saying
 * how long it was. Undefined for an empty body.
 *
 * @example upstreamBodyOf('{"error":"bad key sk-abcdef123456"}') // '{"error":"bad key ****"}'
 */
export function upstreamBodyOf(
  body: string | undefined,
  secrets: readonly (string | undefined)[] = [],
): string | undefined {
  if (!body) return undefined;
  const text = redactSecrets(body, secrets);
  if (text.length <= MAX_UPSTREAM_BODY_CHARS) return text;
  // never end on half a surrogate pair
  const cut = /[\uD800-\uDBFF]/.test(text[MAX_UPSTREAM_BODY_CHARS - 1]!)
    ? MAX_UPSTREAM_BODY_CHARS - 1
    : MAX_UPSTREAM_BODY_CHARS;
  return `${text.slice(0, cut)}… [truncated: ${text.length} characters in all]`;
}
