public import Instrumentation

/// The W3C trace context of a span: what a `traceparent` header carries.
///
/// `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`; ids of all zeros are invalid.
public struct W3CTraceContext: Sendable, Hashable {
    public let traceID: String
    public let spanID: String
    public let flags: String
    /// The `tracestate` that came with it (vendor entries, at most 512 bytes as W3C allows), passed on unchanged.
    public var state: String?

    public init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", Self.isHex(parts[0]),
            parts[1].count == 32, Self.isHex(parts[1]), parts[1].contains(where: { $0 != "0" }),
            parts[2].count == 16, Self.isHex(parts[2]), parts[2].contains(where: { $0 != "0" }),
            parts[3].count == 2, Self.isHex(parts[3]),
            parts[0] != "00" || parts.count == 4
        else { return nil }
        self.init(traceID: String(parts[1]), spanID: String(parts[2]), flags: String(parts[3]))
    }

    init(traceID: String, spanID: String, flags: String) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
    }

    public var traceparent: String { "00-\(traceID)-\(spanID)-\(flags)" }

    /// A child of this context: same trace, a new span id.
    func child() -> W3CTraceContext {
        var child = W3CTraceContext(traceID: traceID, spanID: TraceIDGenerator.shared.spanID(), flags: flags)
        child.state = state
        return child
    }

    /// The root of a new trace, sampled.
    static func root() -> W3CTraceContext {
        W3CTraceContext(traceID: TraceIDGenerator.shared.traceID(), spanID: TraceIDGenerator.shared.spanID(), flags: "01")
    }

    private static func isHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// Where a span's ``W3CTraceContext`` is kept in an `InstrumentationContext`.
enum W3CTraceContextKey: InstrumentationContextKey {
    typealias Value = W3CTraceContext
}

extension InstrumentationContext {
    /// The W3C trace context of the current span, if a ``W3CPropagatingTracer`` made or extracted one.
    public var w3cTraceContext: W3CTraceContext? {
        get { self[W3CTraceContextKey.self] }
        set { self[W3CTraceContextKey.self] = newValue }
    }
}
