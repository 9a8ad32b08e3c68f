import Logging

/// One line a ``TestLogHandler`` received.
struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: Logger.Metadata

    /// The metadata value under `key`, as text.
    subscript(key: String) -> String? {
        metadata[key].map { "\($0)" }
    }
}
