import { type Dispatcher, request } from 'undici';

/** How one POST to the webhook went. */
export type WebhookResult =
  | { delivered: true }
  | {
      delivered: false;
      /** Worth trying again later (network trouble, a timeout, 408, 429, 5xx); otherwise the batch is dropped. */
      retryable: boolean;
      /** `status 503`, `timeout`, `ECONNREFUSED`: never the URL, which may hold a token. */
      reason: string;
    };

const RETRYABLE_STATUS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

function reasonOf(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'network error';
}

/**
 * POSTs one JSON body to the webhook and reads the answer away. Never throws: a failure comes back as
 * a result, so the flush loop decides what to keep. `signal` bounds the whole exchange. `headers` are
 * sent besides `content-type` (an `Authorization`, say).
 */
export async function postWebhook(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
): Promise<WebhookResult> {
  try {
    const res = await request(url, {
      dispatcher,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // the answer says nothing we use; read it away so the connection is reused
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    if (res.statusCode >= 200 && res.statusCode < 300) return { delivered: true };
    return {
      delivered: false,
      retryable: RETRYABLE_STATUS(res.statusCode),
      reason: `status ${res.statusCode}`,
    };
  } catch (error) {
    return { delivered: false, retryable: true, reason: reasonOf(error, signal) };
  }
}
