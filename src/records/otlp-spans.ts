import { randomBytes } from 'node:crypto';
import { genAiProviderName } from '../router/observability/gen-ai.js';
import type { CallRecord } from './call-record.js';

/** An OTLP `AnyValue` in the JSON encoding (64-bit integers as decimal strings). */
type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };
interface KeyValue {
  key: string;
  value: AnyValue;
}

/** Record fields with an OpenTelemetry semantic-convention name (GenAI, HTTP, error); the rest are `svc.*`. */
export const CONVENTION_NAMES: Readonly<Record<string, string>> = Object.freeze({
  operation: 'gen_ai.operation.name',
  model: 'gen_ai.request.model',
  provider: 'gen_ai.provider.name',
  prompt_tokens: 'gen_ai.usage.input_tokens',
  completion_tokens: 'gen_ai.usage.output_tokens',
  http_status: 'http.response.status_code',
  route: 'http.route',
  error_code: 'error.type',
});

// carried by the span itself, not as attributes
const SPAN_FIELDS = new Set(['start_time', 'end_time', 'trace_id']);
// always a double, so a backend sees one type per attribute whatever the value
const DOUBLES = new Set(['cost']);
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;
const HEX_TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;

function anyValue(field: string, value: unknown): AnyValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return Number.isSafeInteger(value) && !DOUBLES.has(field)
      ? { intValue: String(value) }
      : { doubleValue: value };
  }
  if (value instanceof Date) return { stringValue: value.toISOString() };
  // a list of strings (a call's `tags`) as OTLP's own array: a backend can filter by one element
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return { arrayValue: { values: value.map((v: string) => ({ stringValue: v })) } };
  return { stringValue: JSON.stringify(value) };
}

/** The record's fields as span attributes: convention names where they exist, `svc.<field>` for the rest. */
export function spanAttributes(record: CallRecord): KeyValue[] {
  const attributes: KeyValue[] = [];
  for (const [field, raw] of Object.entries(record)) {
    if (SPAN_FIELDS.has(field)) continue;
    const given = field === 'provider' && typeof raw === 'string' ? genAiProviderName(raw) : raw;
    // `error.type` describes failures only
    if (field === 'error_code' && record.status !== 'failure') continue;
    const value = anyValue(field, given);
    if (value) attributes.push({ key: CONVENTION_NAMES[field] ?? `svc.${field}`, value });
  }
  return attributes;
}

/** Epoch nanoseconds as a decimal string, from a Date, an ISO string or epoch milliseconds. */
function unixNano(value: unknown): string {
  const ms =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(String(value));
  return Number.isFinite(ms) ? (BigInt(Math.round(ms)) * 1_000_000n).toString() : '0';
}

/** One span per call: `{operation} {model}` (GenAI conventions), kind CLIENT, an error status for failures. */
export function recordSpan(record: CallRecord): Record<string, unknown> {
  const traceId =
    typeof record.trace_id === 'string' && HEX_TRACE_ID.test(record.trace_id)
      ? record.trace_id
      : randomBytes(16).toString('hex');
  const operation = record.operation ?? 'chat';
  return {
    traceId,
    spanId: randomBytes(8).toString('hex'),
    name: record.model ? `${operation} ${record.model}` : operation,
    kind: SPAN_KIND_CLIENT,
    startTimeUnixNano: unixNano(record.start_time),
    endTimeUnixNano: unixNano(record.end_time),
    attributes: spanAttributes(record),
    status:
      record.status === 'failure'
        ? { code: STATUS_ERROR, message: String(record.error_code ?? 'error') }
        : {},
  };
}

/**
 * An OTLP/HTTP `ExportTraceServiceRequest` in the JSON encoding: one resource (`service.name`), one
 * scope, one span per record.
 */
export function otlpTraces(records: readonly CallRecord[], serviceName: string): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: serviceName } }] },
        scopeSpans: [{ scope: { name: '@svc/router' }, spans: records.map(recordSpan) }],
      },
    ],
  };
}
