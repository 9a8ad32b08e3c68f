import CheckoutMessaging
import CheckoutObservability
import CheckoutPaymentsTesting
import Foundation
import RabbitMQ
import Testing

/// Thousands of hostile bodies among valid commands: the worker stays up, every bad message is
/// dead-lettered with a reason, and every valid command gets its event.
@Suite struct MalformedInputFuzzTests {
    @Test func deadLettersEveryBadBodyAndAnswersEveryValidCommand() async throws {
        try await withWorld(["CHECKOUT_CONCURRENCY": "16", "CHECKOUT_PREFETCH": "200"]) { world in
            var generator = SplitMix64(seed: 0xC0FFEE)
            let valid = Bodies.syncCart()
            var bad: [String: [UInt8]] = [:]
            var good: [String] = []
            for index in 0..<2000 {
                let id = "fuzz-\(index)"
                if index % 10 == 0 {
                    good.append(id)
                    try await world.send(.syncCart, Bodies.syncCart(cart: "cart-f\(index)"), messageID: id)
                    continue
                }
                let body = Self.mutate(Array(valid.utf8), &generator)
                bad[id] = body
                try await world.sendRaw("cart.sync", body, messageID: id)
            }

            // Alone, the 2,000 commands take about 30 s; beside the parallel suites, up to three times that.
            let answered = Set(
                try await world.events.wait(for: good.count, timeout: Self.patience) { good.contains($0.properties.correlationID ?? "") }
                    .compactMap(\.properties.correlationID))
            #expect(answered == Set(good))
            // A mutation may still be a readable command (then it is answered, maybe rejected); all others are dead letters.
            let deadOrAnswered = try await Self.waitUntilAccounted(bad.keys, world)
            #expect(deadOrAnswered == bad.count)
            let reasons = Set(world.deadLetters.all.compactMap { $0.properties.headers?["x-error-reason"]?.stringValue })
            #expect(reasons.isSubset(of: ["invalid-json", "invalid-encoding", "missing-field", "wrong-type", "body-too-large"]))
            #expect(reasons.count >= 3)
        }
    }

    private static let patience = Duration.seconds(180)

    private static func waitUntilAccounted(_ ids: Dictionary<String, [UInt8]>.Keys, _ world: TestWorld) async throws -> Int {
        let deadline = ContinuousClock.now + patience
        while true {
            let seen = Set(
                world.deadLetters.all.compactMap(\.properties.messageID) + world.events.all.compactMap(\.properties.correlationID))
            let accounted = ids.filter { seen.contains($0) }.count
            if accounted == ids.count || ContinuousClock.now > deadline { return accounted }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Truncates, flips bytes, swaps types, breaks the encoding or blows up the size.
    private static func mutate(_ body: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: return Array(body.prefix(Int.random(in: 0..<body.count, using: &generator)))
        case 1:
            var copy = body
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                copy[Int.random(in: 0..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            return copy
        case 2:
            return Array(
                String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"baseVersion\":0", with: "\"baseVersion\":\"zero\"").utf8)
        case 3:
            return Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"items\":[", with: "\"items\":{\"x\":[").utf8)
                + Array("}".utf8)
        case 4: return body + [0xC3, 0x28]
        case 5: return Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"customerId\":\"cust-7\",", with: "").utf8)
        default: return Array(repeating: UInt8(ascii: "["), count: 256 * 1024 + Int.random(in: 1...100, using: &generator))
        }
    }
}
