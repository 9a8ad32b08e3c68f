import CheckoutOperations
import Logging

/// The worker's log handler for swift-otel's own lines, which name each `OTEL_*` variable it read
/// with its value: those of a variable whose value is secret (`OTEL_EXPORTER_OTLP_HEADERS`, which
/// carries the collector's API key) are masked, as the worker's own start-up line masks its settings.
struct OTelDiagnosticLogHandler: LogHandler {
    private var wrapped: any LogHandler

    /// The metadata swift-otel writes a variable's values under, and the one that names the variable.
    private static let valueKeys = ["environment_value", "previous_value", "new_value"]
    private static let variableKey = "environment_key"

    init(wrapping wrapped: any LogHandler) {
        self.wrapped = wrapped
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var wrapped = wrapped
        if let variable = wrapped[metadataKey: Self.variableKey] ?? event.metadata?[Self.variableKey],
            SecretMasking.isSecret(settingName: "\(variable)")
        {
            var event = event
            for key in Self.valueKeys {
                if wrapped[metadataKey: key] != nil { wrapped[metadataKey: key] = "\(SecretMasking.mask)" }
                if event.metadata?[key] != nil { event.metadata?[key] = "\(SecretMasking.mask)" }
            }
            wrapped.log(event: event)
        } else {
            wrapped.log(event: event)
        }
    }
}
