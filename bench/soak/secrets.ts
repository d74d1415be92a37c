// The credentials of the soak's secrets scenario: what the deployments are configured with, and what
// the echoing upstream hands out as tokens. Every one must stay out of everything the router shows.

/** An Entra client secret as the portal makes them: `~` becomes `%7E` once form-encoded. */
export const CLIENT_SECRET = 'Zx8Q~soak.client-secret_value~0123456789';
/** The access token the echo's Entra endpoint hands out. */
export const ENTRA_TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.soak-entra-access-token.signature-part';
/** The access token the echo's Google endpoint hands out. */
export const GOOGLE_TOKEN = 'ya29.c.soak-google-access-token-fetched-by-the-router';
export const OPENAI_KEY = 'sk-soak-openai-5f1c2e9a8b7d6c4e3f2a1b0c9d8e7f6a';
export const ANTHROPIC_KEY = 'sk-ant-soak-api03-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
export const GEMINI_KEY = 'AIzaSyD-soak-gemini-key-0123456789abcdefgh';
export const AWS_SECRET_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY-soak-SECRET';
export const AWS_SESSION_TOKEN = 'IQoJb3JpZ2luX2VjE-soak-session-token/+=0123456789';

/** The forms a secret may take in an echoed body or a log line: as is, URL- and form-encoded, base64. */
export function encodings(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
  ]);
  return [...forms];
}
