public import Tracing

/// A span of ``W3CPropagatingTracer``: it carries its trace context and records nothing else.
public struct W3CSpan: Span {
    public let context: InstrumentationContext
    private let name: String

    init(context: InstrumentationContext, operationName: String) {
        self.context = context
        name = operationName
    }

    public var operationName: String {
        get { name }
        nonmutating set {}
    }

    public var attributes: SpanAttributes {
        get { [:] }
        nonmutating set {}
    }

    public var isRecording: Bool { false }

    public func setStatus(_ status: SpanStatus) {}
    public func addEvent(_ event: SpanEvent) {}
    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant)
    {}
    public func addLink(_ link: SpanLink) {}
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {}
}
