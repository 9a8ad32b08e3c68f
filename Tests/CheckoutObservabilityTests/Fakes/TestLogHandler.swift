import Logging

/// A log handler for one test's logger, so no test bootstraps the process-wide logging system.
struct TestLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append(LogRecord(
            level: event.level,
            message: event.message.description,
            metadata: metadata.merging(event.metadata ?? [:]) { _, new in new }
        ))
    }

    /// A logger whose records end up in `recorder`.
    static func logger(recordingInto recorder: LogRecorder) -> Logger {
        Logger(label: "test") { _ in TestLogHandler(recorder: recorder) }
    }
}
