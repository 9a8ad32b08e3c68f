public import Logging
public import Tracing

/// A tracer that continues W3C trace context: a span is a child of the `traceparent` it was given
/// (or starts a trace), and publishing passes its own `traceparent`, and the `tracestate` it was
/// given, on. It records and exports nothing, so it costs next to nothing; the trace id still reaches
/// every log line (``logMetadata``), and a backend that wants spans (OpenTelemetry) replaces it,
/// since the worker only sees `Tracer`.
public struct W3CPropagatingTracer: Tracer {
    public typealias Span = W3CSpan

    public init() {}

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> InstrumentationContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> W3CSpan {
        var context = context()
        context.w3cTraceContext = context.w3cTraceContext?.child() ?? .root()
        return W3CSpan(context: context, operationName: operationName)
    }

    public func forceFlush() {}

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    )
    where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
            var parent = W3CTraceContext(traceparent: header.lowercased())
        else { return }
        parent.state = extractor.extract(key: "tracestate", from: carrier).flatMap { $0.isEmpty ? nil : $0 }
        context.w3cTraceContext = parent
    }

    public func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let trace = context.w3cTraceContext else { return }
        injector.inject(trace.traceparent, forKey: "traceparent", into: &carrier)
        if let state = trace.state { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }

    /// `trace.id` and `span.id` of the current span, for every log line written inside it.
    public static let logMetadata = Logger.MetadataProvider {
        guard let trace = InstrumentationContext.current?.w3cTraceContext else { return [:] }
        return ["trace.id": "\(trace.traceID)", "span.id": "\(trace.spanID)"]
    }
}
