import CheckoutOperations
import Logging
import Testing

@Suite struct LoggingBootstrapTests {
    @Test func makesJSONHandlersAtTheGivenLevelForTheJSONFormat() {
        let handler = LoggingBootstrap.handlerFactory(format: .json, level: .debug)("checkout.worker", nil)

        #expect(handler is JSONLogHandler)
        #expect(handler.logLevel == .debug)
    }

    @Test func makesEscapingTextHandlersForTheTextFormat() {
        let handler = LoggingBootstrap.handlerFactory(format: .text, level: .warning)("checkout.worker", nil)

        #expect(handler is TextLogHandler)
        #expect(handler.logLevel == .warning)
    }

    @Test func passesTheMetadataProviderOn() {
        let provider = Logger.MetadataProvider { ["trace.id": "abc"] }

        let handler = LoggingBootstrap.handlerFactory(format: .json, level: .info)("checkout.worker", provider)

        #expect(handler.metadataProvider?.get() == ["trace.id": "abc"])
    }

    @Test func readsTheFormatsOperatorsWrite() {
        #expect(LogFormat(rawValue: "json") == .json)
        #expect(LogFormat(rawValue: "text") == .text)
        #expect(LogFormat(rawValue: "yaml") == nil)
    }
}
