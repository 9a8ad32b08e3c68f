import Logging

/// The logger of the benchmark's own broker connections: warnings and worse, on stderr, so that a
/// reconnect is seen and stdout keeps only the Markdown.
enum ConnectionLogger {
    static let shared: Logger = {
        var logger = Logger(label: "checkout-bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }()
}
