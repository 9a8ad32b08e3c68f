import Synchronization

/// Where the copies of one ``RecordingLogHandler`` put each log line as text: handlers are values, lines are shared.
final class LogRecorder: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }
}
