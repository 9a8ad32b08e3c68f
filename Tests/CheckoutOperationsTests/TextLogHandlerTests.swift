import Logging
import Synchronization
import Testing

@testable import CheckoutOperations

@Suite struct TextLogHandlerTests {
    /// Through a sink, as JSON lines go: on standard error, its writer thread, which a reader that
    /// stalls does not stop the caller for.
    @Test func writesEachLineWholeToItsSink() {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "checkout.worker") { label in
            TextLogHandler(label: label, sink: LogSink { line in lines.withLock { $0.append(line) } }, metadataProvider: nil)
        }

        logger.info("handled a command", metadata: ["command.id": "cmd-1"])
        logger.warning("the broker blocked publishing")

        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
        #expect(written.first?.contains("info checkout.worker: command.id=cmd-1 [") == true, "\(written)")
        #expect(written.first?.hasSuffix("] handled a command\n") == true, "\(written)")
    }

    @Test func escapesNewlinesSoAClientValueCannotForgeALine() {
        let forged = "cmd-1\n2026-01-01T00:00:00Z error checkout.worker: payment refunded"

        let escaped = TextLogHandler.escaped(forged)

        #expect(!escaped.contains("\n"))
        #expect(escaped == #"cmd-1\u{a}2026-01-01T00:00:00Z error checkout.worker: payment refunded"#)
    }

    @Test func escapesEveryControlCharacterAndLeavesOtherTextAlone() {
        #expect(TextLogHandler.escaped("a\r\tb\u{1B}[31m\u{2028}") == #"a\u{d}\u{9}b\u{1b}[31m\u{2028}"#)
        #expect(TextLogHandler.escaped("cart-42 €") == "cart-42 €")
    }

    @Test func cutsAValueOrAMessageLongerThanTwoKiB() {
        let long = String(repeating: "x", count: 100_000)

        let mark = "… (100000 bytes)"
        #expect(TextLogHandler.escaped(long) == String(repeating: "x", count: 2048 - mark.utf8.count) + mark)
        #expect(TextLogHandler.token("a b" + long).hasSuffix("… (100003 bytes)\""))
    }

    /// A C1 control acts as an escape sequence on some terminals, and a bidirectional override shows
    /// the rest of a line in another order than it is written.
    @Test func escapesC1ControlsAndInvisibleFormattingCharacters() {
        #expect(TextLogHandler.escaped("a\u{9B}2J\u{202E}b\u{200B}") == #"a\u{9b}2J\u{202e}b\u{200b}"#)
        #expect(TextLogHandler.token("cmd\u{2066}1") == #""cmd\u{2066}1""#)
    }

    @Test func writesMetadataSetOnTheLoggerAndNestedValuesAsTokensOnce() {
        var handler = TextLogHandler(label: "checkout.worker", metadataProvider: nil)

        handler[metadataKey: "command.id"] = "a\nb"
        handler.metadata["nested"] = .dictionary(["list": .array(["c\nd"])])

        #expect(handler.writtenMetadata["command.id"] == .string(#""a\u{a}b""#))
        #expect(handler.writtenMetadata["nested"] == .dictionary(["list": .array([.string(#""c\u{a}d""#)])]))
        #expect(handler[metadataKey: "command.id"] == "a\nb")
    }

    @Test func writesTheCallsErrorAsTokensToo() {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "no cart x error.code=forged\nnext line" }
        }
        let event = LogEvent(
            level: .error, message: "failed", error: Refused(), metadata: ["command.id": "a b"], source: nil, file: "", function: "",
            line: 0)

        let written = TextLogHandler.writtenMetadata(of: event)

        #expect(written?["error.message"] == .string(#""no cart x error.code=forged\u{a}next line""#))
        #expect(written?["command.id"] == .string(#""a b""#))
        #expect(written?["error.type"] != nil)
    }

    @Test func quotesAMetadataValueThatCouldPassForMoreFields() {
        #expect(TextLogHandler.token("x error.code=refunded") == #""x error.code=refunded""#)
        #expect(TextLogHandler.token(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(TextLogHandler.token("cart-42/€") == "cart-42/€")
    }
}
