import RabbitMQ
import Tracing

/// Writes trace context (W3C `traceparent`, `tracestate`) into AMQP headers.
struct AMQPHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout AMQPFieldTable) {
        headers[key] = .string(value)
    }
}
