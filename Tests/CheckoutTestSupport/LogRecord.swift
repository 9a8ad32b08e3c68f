public import Logging

/// One line a ``RecordingLogHandler`` received; the call's error is in `error.type` and `error.message`.
public struct LogRecord: Sendable {
    public let level: Logger.Level
    public let message: String
    public let metadata: Logger.Metadata

    /// The metadata value under `key`, as text.
    public subscript(key: String) -> String? {
        metadata[key].map { "\($0)" }
    }

    /// The whole record as one line of text, to search for what must never be logged.
    public var text: String {
        "\(level) \(message) \(metadata)"
    }
}
