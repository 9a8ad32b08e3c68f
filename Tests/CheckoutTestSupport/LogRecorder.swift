import Synchronization

/// Where the copies of one ``RecordingLogHandler`` put what they receive: handlers are values, records are shared.
public final class LogRecorder: Sendable {
    private let storage = Mutex<[LogRecord]>([])

    public init() {}

    public var records: [LogRecord] { storage.withLock { $0 } }

    func append(_ record: LogRecord) {
        storage.withLock { $0.append(record) }
    }
}
