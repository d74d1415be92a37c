import { ConfigError } from '@svc/router';

/** OTLP export of the proxy's spans, running until `shutdown()`. */
export interface OtlpTracing {
  /** Sends the spans still buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

export interface OtlpTracingOptions {
  /** `general_settings.otel_exporter_otlp_endpoint`: the collector's base URL (`/v1/traces` is appended). */
  endpoint: string;
  /** `service.name` of the spans. */
  serviceName: string;
}

const PACKAGES =
  '@opentelemetry/sdk-trace-node @opentelemetry/sdk-trace-base @opentelemetry/exporter-trace-otlp-http @opentelemetry/resources';

/**
 * Registers a global OpenTelemetry tracer provider (with the async-context manager and the W3C
 * propagator) that batches spans to an OTLP/HTTP collector. The SDK is an optional dependency: it is
 * loaded only here, when the config asks for an exporter.
 *
 * @throws ConfigError naming the packages to install when the SDK is missing.
 */
export async function startOtlpTracing(options: OtlpTracingOptions): Promise<OtlpTracing> {
  const modules = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]).catch(() => {
    throw new ConfigError('general_settings', [
      `otel_exporter_otlp_endpoint: the OpenTelemetry SDK is not installed; run \`npm install ${PACKAGES}\``,
    ]);
  });
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    modules;
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
