import Logging

/// A log handler for one test's logger that keeps every line, at every level, to search for secrets.
struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        recorder.append("\(event.level) \(event.message) \(all) \(event.error.map { "\($0)" } ?? "")")
    }

    /// A logger whose lines end up in `recorder`.
    static func logger(recordingInto recorder: LogRecorder) -> Logger {
        Logger(label: "payments-test") { _ in RecordingLogHandler(recorder: recorder) }
    }
}
