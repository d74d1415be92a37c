import type { RecordDestination } from './destination.js';
import { JsonPoster } from './json-poster.js';

/** A `webhook` entry of `callbacks`. */
export interface WebhookSettings {
  /** Where each batch is POSTed (http or https). */
  url: string;
  /** Sent with every POST, e.g. `{ Authorization: 'Bearer ...' }`. */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** POSTs each batch as a JSON array of records (`content-type: application/json`). */
export function webhookDestination(settings: WebhookSettings): RecordDestination {
  const poster = new JsonPoster(settings.url, settings.headers ?? {});
  return {
    type: 'webhook',
    send: (records, signal) => poster.post(JSON.stringify(records), signal),
    close: () => poster.close(),
  };
}
