import CheckoutObservability
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Where the worker's spans go: to an OpenTelemetry collector over OTLP/HTTP when the standard
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set (``WorkerConfiguration/exportsTraces``),
/// and nowhere otherwise, when the W3C trace context is only continued from each command to its events.
///
/// The other standard variables (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_PROTOCOL` `http/protobuf` or
/// `http/json`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, …) are read by
/// swift-otel. Only traces are exported: logs go to standard error, metrics to `/metrics`.
struct TracingBackend {
    let tracer: any Tracer
    /// Exports batches of spans; runs in the service group, stopped after the command worker so that
    /// the last spans are flushed.
    let exporter: (any Service)?

    /// Continues `traceparent` and `tracestate` without exporting anything.
    static let propagatingOnly = TracingBackend(tracer: W3CPropagatingTracer(), exporter: nil)

    /// An exporting backend, configured by swift-otel from the environment, or ``propagatingOnly``.
    static func make(exporting: Bool, logger: Logger) throws -> TracingBackend {
        guard exporting else { return .propagatingOnly }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "checkout-worker"
        var diagnostics = logger
        diagnostics.handler = OTelDiagnosticLogHandler(wrapping: logger.handler)
        configuration.diagnosticLogger = .custom(diagnostics)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TracingBackend(tracer: backend.factory, exporter: backend.service)
    }

    /// `trace.id` and `span.id` of the current span in every log line, whichever backend made it.
    ///
    /// One backend runs in a process, so the other's provider is asked only when the first has
    /// nothing; `Logger.MetadataProvider.multiplex` would merge two dictionaries for every line.
    static let logMetadata: Logger.MetadataProvider = {
        var keys = OTel.Configuration.LoggingMetadataProviderConfiguration.default
        keys.traceIDKey = "trace.id"
        keys.spanIDKey = "span.id"
        keys.traceFlagsKey = "trace.flags"
        let otel = OTel.makeLoggingMetadataProvider(configuration: keys)
        return Logger.MetadataProvider {
            let exported = otel.get()
            return exported.isEmpty ? W3CPropagatingTracer.logMetadata.get() : exported
        }
    }()
}
