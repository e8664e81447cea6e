import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, hostDetectorSync, processDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';

/**
 * OpenTelemetry traces, on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (docs/observability.md). The standard
 * OTEL_* variables apply (service name, headers, batch delays). Off, every helper here is a no-op of the API and
 * no trace context is written anywhere.
 */
export interface Tracing {
  /** Temporal's interceptors: client starts, workflow and activity spans, workflow spans exported through a sink. */
  plugin: OpenTelemetryPlugin;
  flush(): Promise<void>;
}

let installed: Tracing | null | undefined;

/** Installs the process's tracer provider once (the first role to ask names the service); null when tracing is off. */
export function installTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | null {
  if (installed !== undefined) return installed;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return (installed = null);
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': serviceName }))
    .merge(hostDetectorSync.detect())
    .merge(processDetectorSync.detect())
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
    .merge(envDetectorSync.detect());
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // AsyncLocalStorage context and the W3C trace-context propagator.
  provider.register();
  installed = { plugin: new OpenTelemetryPlugin({ resource, spanProcessor }), flush: () => provider.forceFlush() };
  return installed;
}

export const tracer = trace.getTracer('tms');

/** The active span's W3C `traceparent`, to keep with work that continues elsewhere (an outbox event); null without one. */
export function currentTraceParent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/**
 * Runs `fn` in a new span, child of the given `traceparent` (or of the active span without one), and hands it the
 * span's own `traceparent` for the request it makes. The span records an exception and ends however `fn` ends.
 */
export function inSpan<T>(
  name: string,
  opts: { parent?: string | null; kind?: SpanKind; attributes?: Attributes },
  fn: (span: Span, traceParent: string | null) => Promise<T>,
): Promise<T> {
  const parent = opts.parent ? propagation.extract(ROOT_CONTEXT, { traceparent: opts.parent }) : context.active();
  return tracer.startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes },
    parent,
    async (span) => {
      try {
        return await fn(span, currentTraceParent());
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
