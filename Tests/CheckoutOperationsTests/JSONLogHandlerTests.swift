import CheckoutOperations
import Foundation
import Logging
import Testing

@Suite struct JSONLogHandlerTests {
    @Test func writesOneJSONObjectPerLineWithTimestampLevelLabelSourceAndMessage() throws {
        let (logger, lines) = makeSUT()

        logger.info("command received")

        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.hasSuffix("}\n") == true)
        let line = try #require(try lines.objects().first)
        #expect(line["timestamp"] as? String == "2026-01-02T03:04:05.678Z")
        #expect(line["level"] as? String == "info")
        #expect(line["label"] as? String == "checkout.worker")
        #expect(line["source"] as? String == "CheckoutOperationsTests")
        #expect(line["message"] as? String == "command received")
    }

    /// An invalid `cartId` can be most of a 256 KiB body: written whole, one line would be longer than log
    /// collectors take (Docker splits lines at 16 KiB, and the halves are not JSON).
    @Test func cutsAValueOrAMessageLongerThanTwoKiB() throws {
        let (logger, lines) = makeSUT()
        let long = String(repeating: "é", count: 50_000)

        logger.notice("rejected \(long)", metadata: ["cart.id": "\(long)", "nested": ["list": ["\(long)"]]])

        let line = try #require(lines.lines.first)
        #expect(line.utf8.count < 8 * 1024, "\(line.utf8.count) bytes")
        let object = try #require(try lines.objects().first)
        let cartID = try #require(object["cart.id"] as? String)
        #expect(cartID.hasPrefix("éé") && cartID.hasSuffix("… (100000 bytes)") && cartID.utf8.count <= 2048, "\(cartID.utf8.count)")
        #expect((object["message"] as? String)?.hasSuffix("… (100009 bytes)") == true)
    }

    @Test func startsWithTheFixedFieldsSoAPersonCanReadTheLine() throws {
        let (logger, lines) = makeSUT()

        logger.info("command received", metadata: ["a": "first in the alphabet"])

        #expect(lines.lines.first?.hasPrefix(#"{"timestamp":"2026-01-02T03:04:05.678Z","level":"info","label":"checkout.worker""#) == true)
    }

    @Test func flattensTheMetadataOfTheHandlerTheProviderAndTheCallToTopLevelFields() throws {
        let (sut, lines) = makeSUT(metadataProvider: Logger.MetadataProvider { ["trace.id": "4bf92f3577b34da6a3ce929d0e0e4736"] })
        var logger = sut
        logger[metadataKey: "command.id"] = "cmd-1"
        logger[metadataKey: "messaging.message.conversation_id"] = "corr-1"

        logger.info("cart synced", metadata: ["cart.id": "cart-42"])

        let line = try #require(try lines.objects().first)
        #expect(line["command.id"] as? String == "cmd-1")
        #expect(line["messaging.message.conversation_id"] as? String == "corr-1")
        #expect(line["cart.id"] as? String == "cart-42")
        #expect(line["trace.id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
    }

    @Test func letsTheCallsMetadataWinOverTheProvidersAndTheProvidersOverTheHandlers() throws {
        let (sut, lines) = makeSUT(metadataProvider: Logger.MetadataProvider { ["b": "provider", "c": "provider"] })
        var logger = sut
        logger[metadataKey: "a"] = "handler"
        logger[metadataKey: "b"] = "handler"

        logger.info("x", metadata: ["c": "call"])

        let line = try #require(try lines.objects().first)
        #expect(line["a"] as? String == "handler")
        #expect(line["b"] as? String == "provider")
        #expect(line["c"] as? String == "call")
    }

    @Test func writesNestedMetadataAsJSONObjectsAndArrays() throws {
        let (logger, lines) = makeSUT()

        logger.info(
            "cart synced",
            metadata: [
                "cart": ["id": "cart-42", "version": "\(2)"],
                "adjustments": ["merged", .stringConvertible(7)],
            ])

        let line = try #require(try lines.objects().first)
        #expect(line["cart"] as? [String: String] == ["id": "cart-42", "version": "2"])
        #expect(lines.lines.first?.contains(#""adjustments":["merged",7]"#) == true)
    }

    @Test func escapesQuotesBackslashesAndControlCharactersAndKeepsUnicode() throws {
        let (logger, lines) = makeSUT()
        let message = "say \"hi\" \\ path\nnext line\tand\u{01} bell \u{7F} – café 🛒"

        logger.info("\(message)", metadata: ["key \"quoted\"\n": "\u{1F}"])

        #expect(lines.lines.first?.dropLast().contains("\n") == false)
        let line = try #require(try lines.objects().first)
        #expect(line["message"] as? String == message)
        #expect(line["key \"quoted\"\n"] as? String == "\u{1F}")
    }

    @Test func keepsTheFixedFieldsWhenMetadataUsesTheirNames() throws {
        let (logger, lines) = makeSUT()

        logger.info("the real message", metadata: ["message": "impostor", "level": "impostor"])

        let line = try #require(try lines.objects().first)
        #expect(line["message"] as? String == "the real message")
        #expect(line["level"] as? String == "info")
        #expect(line["metadata.message"] as? String == "impostor")
        #expect(line["metadata.level"] as? String == "impostor")
    }

    @Test func writesIntegersAndBooleansAsJSONNumbersAndBooleansAndOtherValuesAsStrings() throws {
        struct Version: CustomStringConvertible, Sendable {
            var description: String { "7" }
        }
        let (logger, lines) = makeSUT()

        logger.info(
            "typed",
            metadata: [
                "count": .stringConvertible(3), "tag": .stringConvertible(UInt64.max), "negative": .stringConvertible(Int16(-2)),
                "replayed": .stringConvertible(true), "text": "3", "described": .stringConvertible(Version()),
            ])

        let line = try #require(lines.lines.first)
        #expect(line.contains(#""count":3"#))
        #expect(line.contains(#""tag":18446744073709551615"#))
        #expect(line.contains(#""negative":-2"#))
        #expect(line.contains(#""replayed":true"#))
        #expect(line.contains(#""text":"3""#))
        #expect(line.contains(#""described":"7""#))
    }

    @Test func writesTheErrorOfTheCallAsTypeAndMessage() throws {
        struct BrokerUnreachable: Error, CustomStringConvertible {
            var description: String { "connection refused" }
        }
        let (logger, lines) = makeSUT()

        logger.error("could not connect", error: BrokerUnreachable())

        let line = try #require(try lines.objects().first)
        #expect(line["error.message"] as? String == "connection refused")
        #expect((line["error.type"] as? String)?.hasSuffix("BrokerUnreachable") == true)
    }

    @Test func writesNothingBelowItsLevel() {
        let (sut, lines) = makeSUT()
        var logger = sut
        logger.logLevel = .warning

        logger.info("routine")
        logger.warning("unusual")

        #expect(lines.lines.count == 1)
    }

    @Test func writesWholeLinesWhenManyTasksLogAtOnce() async throws {
        let (logger, lines) = makeSUT()

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        logger.info("line", metadata: ["task": "\(task)", "index": "\(index)"])
                    }
                }
            }
        }

        let objects = try lines.objects()
        #expect(objects.count == 800)
        #expect(Set(objects.compactMap { line in (line["task"] as? String).map { "\($0)/\(line["index"] ?? "")" } }).count == 800)
    }

    private func makeSUT(metadataProvider: Logger.MetadataProvider? = nil) -> (Logger, LineCollector) {
        let lines = LineCollector()
        let pinned = Date(timeIntervalSince1970: 1_767_323_045.6781)
        let logger = Logger(label: "checkout.worker") { label in
            JSONLogHandler(label: label, sink: lines.sink, metadataProvider: metadataProvider, now: { pinned })
        }
        return (logger, lines)
    }
}
