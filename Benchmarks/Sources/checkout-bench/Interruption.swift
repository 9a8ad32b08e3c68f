import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into cancellation of the benchmark's work, so that it stops its worker
/// processes and deletes its virtual hosts, schemas and files before exiting, instead of leaving them.
final class Interruption {
    private static let signals = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]

    init<Success>(cancelling work: Task<Success, any Error>) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                log("interrupted: stopping the workers and cleaning up")
                work.cancel()
            }
            source.resume()
            return source
        }
    }

    /// Gives the signals back their default action.
    func end() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
