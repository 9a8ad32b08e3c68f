import CheckoutMessaging
import CheckoutObservability
import Foundation
import RabbitMQ
import Testing

/// Hundreds of messages whose properties and headers hold whatever a client can encode, at its extremes,
/// on valid and invalid bodies: the worker stays up, and every message is answered or dead-lettered.
///
/// Seeded and bounded: `FUZZ_SEED=<n>` replays a run, whose seed the test prints.
@Suite struct PropertyFuzzTests {
    private static let count = 400

    @Test func everyMessageIsAnsweredOrDeadLetteredAndTheWorkerStaysUp() async throws {
        let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap { UInt64($0) } ?? 0xF022_5EED
        print("PropertyFuzzTests: seed \(seed) (FUZZ_SEED=\(seed) replays this run)")
        try await withWorld(["CHECKOUT_PREFETCH": "100"]) { world in
            var generator = SplitMix64(seed: seed)
            var sent: [String: String] = [:]
            for index in 0..<Self.count {
                let messageID = "pf-\(index)"
                var fuzz = MessageFuzz(generator: generator, names: world.names)
                let message = fuzz.message(messageID: messageID, cart: "cart-pf\(index)", exchange: world.names.commandsExchange)
                generator = fuzz.generator
                try await world.client.publish(message)
                sent[messageID] = message.properties.correlationID ?? messageID
            }

            let deadline = ContinuousClock.now + .seconds(90)
            var unaccounted = Set(sent.keys)
            while !unaccounted.isEmpty, ContinuousClock.now < deadline {
                let dead = Set(world.deadLetters.all.compactMap(\.properties.messageID))
                let answered = Set(world.events.all.compactMap(\.properties.correlationID))
                unaccounted = unaccounted.filter { !dead.contains($0) && !answered.contains(sent[$0]!) }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(
                unaccounted.isEmpty,
                "seed \(seed): \(unaccounted.count) messages neither answered nor dead-lettered: \(unaccounted.sorted().prefix(10))")
            let reasons = Set(world.deadLetters.all.compactMap { $0.properties.headers?[RetryHeaders.errorReason]?.stringValue })
            #expect(reasons.isSuperset(of: ["headers-too-deep", "invalid-reply-to", "invalid-json"]), "seed \(seed): \(reasons)")

            let alive = "pf-alive"
            try await world.send(.syncCart, Bodies.syncCart(cart: "cart-pf-alive"), messageID: alive)
            try await world.events.wait { $0.properties.correlationID == alive }
        }
    }
}

/// Draws one hostile message: every basic property maybe set to an extreme, headers of every field type
/// (the ones the worker reads among them, of the wrong types too), nesting past the worker's limit, and a
/// valid or broken body.
///
/// It leaves out what RabbitMQ itself refuses from a publisher (non-finite floats close the connection)
/// and what the protocol cannot carry (short strings over 255 bytes).
private struct MessageFuzz {
    var generator: SplitMix64
    let names: MessagingConfiguration

    mutating func message(messageID: String, cart: String, exchange: String) -> AMQPMessage {
        let replyQueues = [
            names.syncCartQueue, names.deadLetter, names.retryQueue(for: .syncCart, retry: 0), "", "nobody-listens-\(messageID)",
        ]
        let properties = AMQPProperties(
            contentType: pick(["application/json", "application/json; charset=utf-8", nil]),
            contentEncoding: maybe { $0.shortString() },
            headers: maybe { $0.headers() },
            deliveryMode: maybe { $0.pick([AMQPProperties.DeliveryMode.transient, .persistent]) },
            priority: maybe { UInt8.random(in: 0...255, using: &$0.generator) },
            correlationID: maybe { _ in "c-\(messageID)" },
            replyTo: maybe { $0.pick(replyQueues) },
            // An expiration short enough to drop the message before the worker takes it would lose it by design.
            expiration: maybe { $0.pick(["600000", "86400000"]) },
            messageID: messageID,
            timestamp: maybe { AMQPTimestamp(secondsSince1970: $0.pick([0, 1, UInt64(Int64.max), UInt64.max - 1, UInt64.max])) },
            type: maybe { $0.shortString() },
            userID: nil,
            appID: maybe { $0.shortString() }
        )
        let body = pick([
            Array(Bodies.syncCart(cart: cart).utf8),
            Array("{\"cartId\":".utf8),
            Array("not json at all".utf8),
            [0xC3, 0x28, 0xFF],
            [],
        ])
        return AMQPMessage(exchange: exchange, routingKey: "cart.sync", properties: properties, body: body)
    }

    private mutating func headers() -> AMQPFieldTable {
        var table: AMQPFieldTable = [:]
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            table[pick(["x-retry-count", "x-original-routing-key", "traceparent", "tracestate", "x-error-reason", shortString()])] = value(
                depth: 0)
        }
        if Bool.random(using: &generator) {
            var deep = value(depth: 0)
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                deep = Bool.random(using: &generator) ? .table(["d": deep]) : .array([deep])
            }
            table["deep"] = deep
        }
        return table
    }

    private mutating func value(depth: Int) -> AMQPFieldValue {
        switch Int.random(in: 0..<(depth < 3 ? 17 : 15), using: &generator) {
        case 0: .bool(Bool.random(using: &generator))
        case 1: .int8(pick([.min, -1, 0, .max]))
        case 2: .uint8(pick([0, .max]))
        case 3: .int16(pick([.min, 0, .max]))
        case 4: .uint16(pick([0, .max]))
        case 5: .int32(pick([.min, -1, 0, .max]))
        case 6: .uint32(pick([0, .max]))
        case 7: .int64(pick([.min, -1, 0, 3, .max]))
        case 8: .uint64(pick([0, UInt64(Int64.max) + 1, .max]))
        case 9: .float(pick([-.greatestFiniteMagnitude, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]))
        case 10: .double(pick([-.greatestFiniteMagnitude, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]))
        case 11: .decimal(scale: pick([0, 255]), value: pick([0, .max]))
        case 12:
            .string(
                pick([
                    "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "line\nbreak\u{1B}[31m",
                    String(repeating: "é", count: 2000),
                ]))
        case 13: .bytes(pick([[], [0xFF, 0xFE, 0x00], Array(repeating: 0x41, count: 4096)]))
        case 14: .timestamp(AMQPTimestamp(secondsSince1970: pick([0, UInt64.max])))
        case 15: .table(["a": value(depth: depth + 1), "b": value(depth: depth + 1)])
        default: .array([value(depth: depth + 1), .void, value(depth: depth + 1)])
        }
    }

    private mutating func shortString() -> String {
        pick(["", "x", String(repeating: "k", count: 255), "ünïcödé", "tab\there"])
    }

    private mutating func maybe<Value>(_ make: (inout MessageFuzz) -> Value) -> Value? {
        Bool.random(using: &generator) ? make(&self) : nil
    }

    private mutating func pick<Value>(_ values: [Value]) -> Value {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }
}
