/**
 * Percent-escapes that decode to characters a server may treat as path structure (`/`, `\`, `.`), to
 * another escape (`%`, double encoding), or to control characters. A path carrying one is refused: the
 * auth check and the server's router could read it differently, the classic route-auth bypass.
 */
const STRUCTURAL_ESCAPE = /%(?:2f|5c|2e|25|[01][0-9a-f]|7f)/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const FORBIDDEN_RAW = /[\\\u0000-\u001f\u007f\s]/;

/**
 * The path a route check may safely compare, or undefined when the request target is refused:
 *
 * - only the path counts: the query and fragment are dropped; the Host header and forwarding headers are
 *   never read, so `Host: admin.internal` or `X-Original-URL` change nothing;
 * - an absolute-form target (`http://host/x`), `*`, or a path not starting with `/` is refused;
 * - escapes of `/`, `\`, `.`, `%` or control characters, raw backslashes, whitespace and control
 *   characters are refused; other escapes are decoded (an invalid one is refused);
 * - `.` and `..` segments are refused (never resolved: the server might not resolve them the same way);
 * - runs of `/` collapse to one and a trailing `/` is dropped (`//key//info/` is `/key/info`).
 *
 * @example normalizePath('/v1//chat/completions/?x=1') // => '/v1/chat/completions'
 * @example normalizePath('/v1/models/../../key/generate') // => undefined
 */
export function normalizePath(target: string): string | undefined {
  if (typeof target !== 'string') return undefined;
  let end = target.length;
  const q = target.indexOf('?');
  if (q !== -1) end = q;
  const h = target.indexOf('#');
  if (h !== -1 && h < end) end = h;
  const raw = target.slice(0, end);
  if (!raw.startsWith('/') || raw.length > 8192) return undefined;
  if (FORBIDDEN_RAW.test(raw) || STRUCTURAL_ESCAPE.test(raw)) return undefined;
  // the common path (no escape, no empty, dot or trailing segment) is already normal: no split
  if (
    !raw.includes('%') &&
    !raw.includes('//') &&
    !raw.includes('/.') &&
    (raw.length === 1 || !raw.endsWith('/'))
  )
    return raw;
  let decoded: string;
  try {
    decoded = raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return undefined;
  }
  // decoding may only have produced ordinary characters; re-check for anything structural it revealed
  if (FORBIDDEN_RAW.test(decoded)) return undefined;
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '') continue;
    if (segment === '.' || segment === '..') return undefined;
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
