import type { RecordDestination } from './destination.js';
import { JsonPoster } from './json-poster.js';
import { otlpTraces } from './otlp-spans.js';

/** An `otlp` entry of `callbacks`. */
export interface OtlpSettings {
  /** The full OTLP/HTTP traces URL, e.g. `http://collector:4318/v1/traces` (nothing is appended). */
  endpoint: string;
  /** Sent with every export, e.g. Langfuse's `Authorization: Basic ...` or Datadog's `dd-api-key`. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** `service.name` of the spans' resource. @default 'svc-router' */
  service_name?: string | undefined;
}

/** Exports each batch as OTLP/HTTP traces in the JSON encoding: one span per call. */
export function otlpDestination(settings: OtlpSettings): RecordDestination {
  const poster = new JsonPoster(settings.endpoint, settings.headers ?? {});
  const serviceName = settings.service_name ?? 'svc-router';
  return {
    type: 'otlp',
    send: (records, signal) => poster.post(JSON.stringify(otlpTraces(records, serviceName)), signal),
    close: () => poster.close(),
  };
}
