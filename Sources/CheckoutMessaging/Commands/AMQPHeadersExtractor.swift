import Tracing

/// Reads trace context (W3C `traceparent`, `tracestate`) from a command's headers.
struct AMQPHeadersExtractor: Extractor {
    func extract(key: String, from headers: [String: String]) -> String? {
        headers[key]
    }
}
