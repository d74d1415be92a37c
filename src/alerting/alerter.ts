import { Agent } from 'undici';
import { redactSecrets } from '../errors/redact.js';
import type { Logger } from '../logging/logger.js';
import { clampTimerMs } from '../shared/timers.js';
import { type AlertEvent, type AlertingSettings, DEFAULT_FLUSH_INTERVAL_S } from './alert.js';
import { AlertBuffer } from './alert-buffer.js';
import { droppedLine, webhookBody } from './alert-line.js';
import { postWebhook } from './webhook.js';

/** What the alerter reads from the router, each time it needs it (settings may change at runtime). */
export interface AlerterDeps {
  /** The `alerting_config` in force; undefined when alerting is off. */
  settings(): AlertingSettings | undefined;
  logger(): Logger;
  /** Emits the `alert` event; must not throw. */
  emit(alert: AlertEvent): void;
  /** Secrets to remove from alert text besides credential-shaped text (keys, fetched tokens). */
  secrets(): Iterable<string | undefined>;
}

/** Limits of delivery; the defaults suit production, tests shrink them. */
export interface AlerterOptions {
  /** Alert lines kept while the webhook is down; beyond it the oldest are dropped and counted. @default 1000 */
  capacity?: number;
  /** Lines per POST. @default 50 */
  maxBatch?: number;
  /** Longest wait for one POST. @default 5000 */
  requestTimeoutMs?: number;
  /** Longest time `close()` spends delivering what is left. @default 2000 */
  closeTimeoutMs?: number;
  /** Longest wait between retries of a failing webhook. @default 60000 */
  maxBackoffMs?: number;
}

/**
 * Raises alerts (the `alert` event) and delivers them to `alerting_config.webhook_url` in batches, every
 * `flush_interval` seconds, off the call path: a webhook that is down, slow or hanging never blocks or
 * fails a model call. Undelivered lines wait in a bounded buffer and are retried with exponential
 * backoff; the number dropped is reported in the next delivered batch and logged. The flush timer never
 * keeps the process alive; `close()` delivers what is left once, within `closeTimeoutMs`.
 */
export class Alerter {
  readonly #deps: AlerterDeps;
  readonly #buffer: AlertBuffer;
  readonly #maxBatch: number;
  readonly #requestTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #maxBackoffMs: number;
  readonly #abort = new AbortController();
  #agent: Agent | undefined;
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  /** Failed deliveries in a row: the backoff exponent. */
  #failures = 0;
  #dropLogged = false;
  #closed = false;

  constructor(deps: AlerterDeps, options: AlerterOptions = {}) {
    this.#deps = deps;
    this.#buffer = new AlertBuffer(options.capacity ?? 1000);
    this.#maxBatch = Math.max(2, options.maxBatch ?? 50);
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 5000;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    this.#maxBackoffMs = options.maxBackoffMs ?? 60_000;
  }

  /**
   * Emits the alert and queues its line for the webhook (when one is configured). `secrets` (the
   * deployment's key) are removed from the line besides the router's own. Never throws.
   */
  raise(alert: AlertEvent, secrets: readonly (string | undefined)[] = []): void {
    const text = redactSecrets(alert.text, [...secrets, ...this.#deps.secrets()]);
    const redacted = text === alert.text ? alert : { ...alert, text };
    this.#deps.emit(redacted);
    this.#queue(text);
  }

  /**
   * Queues one line for the webhook (when one is configured), with no `alert` event: an alert of
   * what the router does not see (the proxy's `budget_alert`). Secrets are removed. Never throws.
   */
  raiseLine(line: string): void {
    this.#queue(redactSecrets(line, [...this.#deps.secrets()]));
  }

  #queue(text: string): void {
    if (this.#closed || !this.#deps.settings()?.webhook_url) return;
    if (!this.#buffer.push(text) && !this.#dropLogged) {
      this.#dropLogged = true;
      this.#deps
        .logger()
        .warn(
          `alert buffer full (${this.#buffer.capacity} alerts): dropping the oldest until the webhook takes them`,
        );
    }
    this.#schedule();
  }

  /** Delivers what is left once (within `closeTimeoutMs`), then releases the connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const bound = setTimeout(() => this.#abort.abort(), this.#closeTimeoutMs);
    try {
      await this.#flushing;
      if (this.#buffer.pending && !this.#abort.signal.aborted) await this.#deliver();
    } finally {
      clearTimeout(bound);
      this.#abort.abort();
      await this.#agent?.destroy().catch(() => undefined);
    }
    const left = this.#buffer.size + this.#buffer.dropped;
    if (left > 0) {
      this.#deps.logger().warn(`${left} alert${left === 1 ? ' was' : 's were'} not delivered before close()`);
    }
  }

  #delayMs(): number {
    const intervalMs = (this.#deps.settings()?.flush_interval ?? DEFAULT_FLUSH_INTERVAL_S) * 1000;
    if (this.#failures === 0) return intervalMs;
    return Math.min(intervalMs * 2 ** this.#failures, Math.max(this.#maxBackoffMs, intervalMs));
  }

  #schedule(): void {
    if (this.#closed || this.#timer || this.#flushing || !this.#buffer.pending) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flushing = this.#deliver().finally(() => {
        this.#flushing = undefined;
        this.#schedule();
      });
    }, clampTimerMs(this.#delayMs()));
    // alerts alone never keep the process running
    this.#timer.unref();
  }

  /**
   * Sends what the buffer holds now, in batches, until done or a POST fails (then the next try waits
   * longer). Alerts raised meanwhile wait for the next flush.
   */
  async #deliver(): Promise<void> {
    let remaining = this.#buffer.size;
    do {
      const url = this.#deps.settings()?.webhook_url;
      if (!url) {
        this.#buffer.takeDropped();
        this.#buffer.take(this.#buffer.size);
        return;
      }
      const dropped = this.#buffer.takeDropped();
      const lines = this.#buffer.take(dropped > 0 ? this.#maxBatch - 1 : this.#maxBatch);
      const text = dropped > 0 ? [droppedLine(dropped, this.#buffer.capacity), ...lines] : lines;
      remaining -= lines.length;
      const result = await this.#post(url, webhookBody(text));
      if (result.delivered) {
        this.#failures = 0;
        if (dropped > 0) this.#dropLogged = false;
        continue;
      }
      this.#failures += 1;
      if (result.retryable) {
        this.#buffer.restore(lines);
        this.#buffer.addDropped(dropped);
      } else {
        this.#buffer.addDropped(dropped + lines.length);
      }
      const kept = result.retryable ? `${this.#buffer.size} alerts kept` : `${lines.length} alerts dropped`;
      this.#deps
        .logger()
        .warn(
          `alert webhook ${originOf(url)} failed (${result.reason}); ${kept}, next try in ${this.#delayMs()} ms`,
        );
      return;
    } while (remaining > 0 && this.#buffer.pending);
  }

  // one POST, bounded by its own timeout and by close(); a controller per POST leaves nothing attached
  // to the long-lived close signal
  async #post(url: string, body: string) {
    this.#agent ??= new Agent({ connections: 1, keepAliveTimeout: 10_000 });
    const controller = new AbortController();
    const abort = () => controller.abort();
    const closing = this.#abort.signal;
    closing.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(abort, this.#requestTimeoutMs);
    timer.unref();
    try {
      return await postWebhook(this.#agent, url, body, controller.signal, this.#requestTimeoutMs);
    } finally {
      clearTimeout(timer);
      closing.removeEventListener('abort', abort);
    }
  }
}

// the path of a chat webhook URL is its secret: logs name the origin only
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'webhook';
  }
}
