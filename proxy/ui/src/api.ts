const TOKEN_KEY = 'svc-router-admin-token';

/** The token typed at sign-in; in sessionStorage (this tab only), never in a URL. */
export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** A non-2xx answer of the proxy, with its status and the proxy's error message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Called on every 401/403, so the page can go back to the sign-in form. */
let onDenied: (error: ApiError) => void = () => {};
export function whenDenied(handler: (error: ApiError) => void): void {
  onDenied = handler;
}

/** A JSON call to this proxy with the signed-in token as a bearer token. */
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${getToken() ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    cache: 'no-store',
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const message =
      (json as { error?: { message?: string } } | undefined)?.error?.message ?? (text || response.statusText);
    const error = new ApiError(response.status, message);
    if (response.status === 401 || response.status === 403) onDenied(error);
    throw error;
  }
  return json as T;
}

/** A message for a failed call that says what to do about it. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return `Not signed in (401): ${error.message} Sign in with the master key or an admin JWT.`;
    if (error.status === 403)
      return `Not allowed (403): ${error.message} This page needs the master key or an admin JWT.`;
    return `The proxy answered ${error.status}: ${error.message}`;
  }
  return `Could not reach the proxy: ${(error as Error).message}`;
}
