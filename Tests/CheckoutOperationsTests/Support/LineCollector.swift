import CheckoutOperations
import Foundation
import Synchronization

/// A log sink that keeps the lines it receives, so tests read what a handler wrote.
final class LineCollector: Sendable {
    private let collected = Mutex<[String]>([])

    var lines: [String] { collected.withLock { $0 } }

    var sink: LogSink {
        LogSink { line in self.collected.withLock { $0.append(line) } }
    }

    /// Each line parsed as a JSON object; a line that is not one fails the caller.
    func objects() throws -> [[String: Any]] {
        try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotAJSONObject(line: line)
            }
            return object
        }
    }
}

struct NotAJSONObject: Error, CustomStringConvertible {
    let line: String
    var description: String { "not a JSON object: \(line)" }
}
