const LANGFUSE =
  '{ type: "otlp", endpoint: "https://cloud.langfuse.com/api/public/otel/v1/traces", headers: { Authorization: "Basic <base64 public:secret>" } }';
const DATADOG =
  '{ type: "otlp", endpoint: "https://otlp.datadoghq.com/v1/traces", headers: { "dd-api-key": "os.environ/DD_API_KEY", "dd-protocol": "otlp" } }';
const OTEL = '{ type: "otlp", endpoint: "http://<collector>:4318/v1/traces" }';
const WEBHOOK =
  '{ type: "webhook", url: "https://<your endpoint>", headers: { Authorization: "Bearer <token>" } }';

/** LiteLLM's callback names and the `callbacks` entry that sends the same calls to the same place. */
const EQUIVALENTS: Readonly<Record<string, string>> = {
  langfuse: LANGFUSE,
  langfuse_otel: LANGFUSE,
  datadog: DATADOG,
  datadog_llm_observability: DATADOG,
  otel: OTEL,
  opentelemetry: OTEL,
  generic: WEBHOOK,
  generic_api: WEBHOOK,
  webhook: WEBHOOK,
};

/** The `callbacks` entry equivalent to a LiteLLM callback name, when there is one. */
export function litellmEquivalent(name: string): string | undefined {
  return EQUIVALENTS[name.toLowerCase()];
}

/**
 * Why LiteLLM callback names (`success_callback: ["langfuse"]`, `callbacks: ["datadog"]`) are refused,
 * with the `callbacks` entries that do the same: call records go to `otlp`, `webhook` and `file`
 * destinations (docs/call-records.md).
 */
export function litellmCallbacksMessage(names: unknown): string {
  const list = (Array.isArray(names) ? names : [names]).filter((n): n is string => typeof n === 'string');
  const entries = [...new Set(list.map((name) => litellmEquivalent(name)).filter((e) => e !== undefined))];
  const known =
    entries.length > 0 ? entries.join(', ') : `${OTEL}, ${WEBHOOK} or { type: "file", path: "calls.jsonl" }`;
  return `LiteLLM callback names are not built in; send call records with \`callbacks\` entries instead: callbacks: [${known}] (see docs/call-records.md)`;
}
