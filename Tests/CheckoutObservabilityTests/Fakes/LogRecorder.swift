import Synchronization

/// Where the copies of one ``TestLogHandler`` put what they receive: handlers are values, records are shared.
final class LogRecorder: Sendable {
    private let storage = Mutex<[LogRecord]>([])

    var records: [LogRecord] { storage.withLock { $0 } }

    func append(_ record: LogRecord) {
        storage.withLock { $0.append(record) }
    }
}
