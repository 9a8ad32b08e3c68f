public import Logging

/// Sets up swift-log for the process in the format the operator chose.
public enum LoggingBootstrap {
    /// Bootstraps `LoggingSystem`; call once, first thing in `main`.
    ///
    /// - Parameters:
    ///   - format: `json` (``JSONLogHandler`` on standard error) or `text` (``TextLogHandler``).
    ///   - level: The lowest level written.
    ///   - metadataProvider: Metadata added to every line, such as the active span's trace id.
    public static func bootstrap(format: LogFormat, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) {
        LoggingSystem.bootstrap(handlerFactory(format: format, level: level), metadataProvider: metadataProvider)
    }

    /// The handler factory ``bootstrap(format:level:metadataProvider:)`` installs, usable without touching the global system.
    public static func handlerFactory(
        format: LogFormat,
        level: Logger.Level
    ) -> @Sendable (_ label: String, _ metadataProvider: Logger.MetadataProvider?) -> any LogHandler {
        { label, metadataProvider in
            var handler: any LogHandler =
                switch format {
                case .json: JSONLogHandler(label: label, metadataProvider: metadataProvider)
                case .text: TextLogHandler(label: label, metadataProvider: metadataProvider)
                }
            handler.logLevel = level
            return handler
        }
    }
}
