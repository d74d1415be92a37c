import { Agent } from 'undici';
import { postWebhook } from '../alerting/webhook.js';
import { DeliveryError } from './destination.js';

/**
 * POSTs JSON bodies to one URL over a small connection pool of its own. A failure is a DeliveryError
 * naming the URL's origin only (its path or query may hold a token) and never a header.
 */
export class JsonPoster {
  readonly #agent = new Agent({ connections: 2, keepAliveTimeout: 10_000 });
  readonly #origin: string;

  constructor(
    readonly url: string,
    private readonly headers: Readonly<Record<string, string>>,
  ) {
    this.#origin = new URL(url).origin;
  }

  /** @throws DeliveryError: retryable for network trouble, timeouts, 408, 429 and 5xx. */
  async post(body: string, signal: AbortSignal): Promise<void> {
    // the caller's signal bounds the exchange; undici's own timeouts are left off
    const result = await postWebhook(this.#agent, this.url, body, signal, 0, this.headers);
    if (!result.delivered) throw new DeliveryError(`${this.#origin}: ${result.reason}`, result.retryable);
  }

  /** Cuts every connection, a hanging one included. */
  close(): Promise<void> {
    return this.#agent.destroy();
  }
}
