public import Logging

/// A log handler for one test's logger that records every line, at every level, so that no test
/// bootstraps the process-wide logging system.
public struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The call's error is recorded as `error.type` and `error.message`, as swift-log's own handlers write it.
    public func log(event: LogEvent) {
        var all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if let error = event.error {
            all["error.type"] = "\(String(reflecting: type(of: error)))"
            all["error.message"] = "\(error)"
        }
        recorder.append(LogRecord(level: event.level, message: event.message.description, metadata: all))
    }

    /// A logger whose records end up in `recorder`.
    public static func logger(recordingInto recorder: LogRecorder) -> Logger {
        Logger(label: "test") { _ in RecordingLogHandler(recorder: recorder) }
    }
}
