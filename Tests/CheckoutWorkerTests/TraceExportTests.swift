import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// With the standard OTEL_* variables set, the worker's spans reach an OpenTelemetry collector over
/// OTLP/HTTP, in the trace the client's `traceparent` started, and the trace context goes on to the event.
/// With or without them, the command's log line names that trace.
@Suite struct TraceExportTests {
    private static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"

    /// Sends a SyncCart in the client's trace with `tracestate`, and waits for its event.
    private static func sync(in world: ProcessWorld, tracestate: String, messageID: String, cart: String) async throws -> AMQPDelivery {
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: ["traceparent": .string("00-\(traceID)-00f067aa0ba902b7-01"), "tracestate": .string(tracestate)],
            messageID: messageID)
        try await world.client.publish(
            AMQPMessage(
                exchange: "checkout.commands", routingKey: "cart.sync", properties: properties,
                body: Array(Bodies.syncCart(cart: cart).utf8),
                mandatory: true))
        return try #require(try await world.events.wait { $0.properties.correlationID == messageID }.first)
    }

    private static func base64(hex: String) -> String {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16)!
        }
        return Data(bytes).base64EncodedString()
    }

    @Test func aCommandsSpansAreExportedInTheClientsTraceAndItsContextPassesOnToTheEvent() async throws {
        let collector = try await OTLPCollector.start()
        do {
            try await withProcessWorld("otel") { world in
                let worker = try await world.startWorker([
                    "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
                    "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                    "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_EXPORTER_OTLP_HEADERS": "x-api-key=collector-secret-42",
                ])
                let event = try await Self.sync(in: world, tracestate: "vendor=abc", messageID: "traced-1", cart: "cart-42")
                let traceparent = try #require(event.properties.headers?["traceparent"]?.stringValue)
                #expect(traceparent.hasPrefix("00-\(Self.traceID)-") && !traceparent.contains("00f067aa0ba902b7"))
                #expect(event.properties.headers?["tracestate"]?.stringValue == "vendor=abc")

                let published = "\(event.properties.type ?? "") publish"
                let deadline = ContinuousClock.now + .seconds(20)
                var exported = ""
                while !(exported.contains("cart.sync process") && exported.contains(published)), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                    exported = collector.bodies(of: "/v1/traces").joined(separator: "\n")
                }
                #expect(exported.contains("cart.sync process") && exported.contains(published), "exported: \(exported.prefix(2000))")
                // swift-otel writes ids in base64, as protobuf's JSON mapping does; OTLP's JSON asks for hex.
                #expect(
                    exported.contains("\"traceId\":\"\(Self.base64(hex: Self.traceID))\""),
                    "spans not in the client's trace: \(exported.prefix(2000))")
                #expect(exported.contains("\"traceState\":\"vendor=abc\""))
                #expect(exported.contains("messaging.system") && exported.contains("rabbitmq"))

                // Past the 512 bytes W3C asks vendors to keep, a tracestate is not passed on: the exporter's
                // tracer writes it back out longer, and an event too large for its frame could not be sent.
                let long = (1...12_000).map { "v\($0)=x" }.joined(separator: ",")
                let answered = try await Self.sync(in: world, tracestate: long, messageID: "traced-long", cart: "cart-long")
                let passedOn = answered.properties.headers?["tracestate"] != nil
                #expect(!passedOn, "a tracestate of \(long.utf8.count) bytes was passed on")
                #expect(answered.properties.headers?["traceparent"]?.stringValue?.hasPrefix("00-\(Self.traceID)-") == true)

                // Trace context is ASCII: a name of a digit and a combining mark, counted in bytes by the
                // exporter's parser and stepped back over in characters, made it trap.
                let combining = String(repeating: "0\u{301}", count: 81) + "@a=b"
                let survived = try await Self.sync(in: world, tracestate: combining, messageID: "traced-combining", cart: "cart-combining")
                #expect(survived.properties.headers?["tracestate"] == nil)

                worker.terminate()
                #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
                // swift-otel logs each OTEL_* variable it reads with its value; the headers carry a key.
                #expect(!worker.standardError.contains("collector-secret-42"), "\(worker.standardError)")
                #expect(
                    worker.standardError.contains(#""environment_key":"OTEL_EXPORTER_OTLP_TRACES_HEADERS","environment_value":"***""#),
                    "\(worker.standardError)")
                #expect(Self.loggedInTheClientsTrace(worker.standardError, command: "traced-1"), "\(worker.standardError)")
            }
        } catch {
            try? await collector.shutdown()
            throw error
        }
        try await collector.shutdown()
    }

    @Test func withoutAnExporterTheCommandsLogLineIsInTheClientsTraceToo() async throws {
        try await withProcessWorld("trace-logs") { world in
            let worker = try await world.startWorker([:])
            let properties = AMQPProperties(
                contentType: "application/json", headers: ["traceparent": .string("00-\(Self.traceID)-00f067aa0ba902b7-01")],
                messageID: "traced-2")
            try await world.client.publish(
                AMQPMessage(
                    exchange: "checkout.commands", routingKey: "cart.sync", properties: properties, body: Array(Bodies.syncCart().utf8),
                    mandatory: true))
            _ = try #require(try await world.events.wait { $0.properties.correlationID == "traced-2" }.first)

            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
            #expect(Self.loggedInTheClientsTrace(worker.standardError, command: "traced-2"), "\(worker.standardError)")
        }
    }

    /// Whether the worker's line for the command's outcome names the client's trace.
    private static func loggedInTheClientsTrace(_ log: String, command: String) -> Bool {
        log.split(separator: "\n").contains {
            $0.contains(#""message":"cart sync"#) && $0.contains(#""command.id":"\#(command)""#)
                && $0.contains(#""trace.id":"\#(traceID)""#)
        }
    }
}
