// Credentials that providers or proxies sometimes echo back in error text, with what replaces them.
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, '$1 ****'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, '****'],
  [/([?&](?:key|api_key|api-key|token|sig)=)[^&\s"']+/gi, '$1****'],
  [/\bAKIA[0-9A-Z]{12,}/g, '****'],
];

// a secret shorter than this would be replaced inside ordinary words
const MIN_SECRET_LENGTH = 4;

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

/**
 * Every form in which a provider may echo a secret it was sent: as is, URL-encoded
 * (`encodeURIComponent`), form-encoded (`~` as `%7E`, space as `+`, as in an OAuth token request),
 * either with lower-case hex, JSON-escaped (with and without `\/`), and base64 (standard and URL-safe,
 * as a proxy echoing a header's bytes writes them).
 */
export function secretForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const json = JSON.stringify(secret).slice(1, -1);
  const bytes = Buffer.from(secret);
  return [
    ...new Set([
      secret,
      uri,
      form,
      lowerHex(uri),
      lowerHex(form),
      json,
      json.replaceAll('/', '\\/'),
      bytes.toString('base64'),
      bytes.toString('base64url'),
    ]),
  ];
}

/**
 * Removes the given secrets, in every form a provider may echo them ({@link secretForms}), and anything
 * shaped like a credential from a message. Applied to every message built from upstream text, so no
 * error, log line or event can carry a key.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined> = []): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) for (const form of secretForms(secret)) forms.add(form);
  }
  let out = text;
  // longest first, so a secret that contains another is replaced whole
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (out.includes(form)) out = out.split(form).join('****');
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Shown where an address was. */
export const HIDDEN_ADDRESS = '[address]';

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)]+/gi;
const IPV6_PATTERN = /\[[0-9a-f:.]+\](?::\d+)?/gi;
const IPV4_PATTERN = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;

/**
 * `text` without URLs, IP addresses (with their ports) and the given host names (with their ports),
 * each replaced by {@link HIDDEN_ADDRESS}: what a caller is shown of a network failure never says
 * where a deployment lives.
 */
export function redactAddresses(text: string, hosts: Iterable<string> = []): string {
  let out = text.replace(URL_PATTERN, HIDDEN_ADDRESS).replace(IPV6_PATTERN, HIDDEN_ADDRESS);
  out = out.replace(IPV4_PATTERN, HIDDEN_ADDRESS);
  // longest first, so `api.example.com` goes whole before `example.com` could split it
  for (const host of [...new Set(hosts)].sort((a, b) => b.length - a.length)) {
    if (host.length >= MIN_SECRET_LENGTH) out = out.split(host).join(HIDDEN_ADDRESS);
  }
  return out.replace(/\[address\](?::\d+)/g, HIDDEN_ADDRESS);
}
