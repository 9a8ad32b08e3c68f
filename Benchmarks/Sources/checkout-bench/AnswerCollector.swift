import RabbitMQ
import Synchronization

/// Consumes the answers of a scenario (the workers' events, or the C loop's replies) and hands each,
/// stamped on arrival, to the ledger of the run in progress.
final class AnswerCollector: Sendable {
    private let ledger = Mutex<RunLedger?>(nil)

    /// Runs until the consumer ends or the task is cancelled.
    func collect(_ consumer: AMQPConsumer) async {
        for await delivery in consumer {
            let arrival = MonotonicClock.nanoseconds()
            delivery.ack()
            ledger.withLock {
                $0?.answer(
                    correlationID: delivery.properties.correlationID, type: delivery.properties.type, body: delivery.body, at: arrival)
            }
        }
    }

    func begin(_ run: RunLedger) {
        ledger.withLock { $0 = run }
    }

    func published(_ index: Int, at time: UInt64) {
        ledger.withLock { $0?.published(index, at: time) }
    }

    var answered: Int {
        ledger.withLock { $0?.answered ?? 0 }
    }

    /// The finished run's ledger; later answers are ignored.
    func end() -> RunLedger? {
        ledger.withLock { ledger in
            defer { ledger = nil }
            return ledger
        }
    }
}
