/// Matches the broker's basic.ack / basic.nack / basic.return frames to the publishes that await them.
///
/// rabbitmq-c 0.11 has no confirm API, so this keeps the channel's publish sequence numbers itself. A
/// mandatory message that routes nowhere comes back as basic.return *before* its basic.ack, and the return
/// carries no sequence number: it is matched to the oldest unconfirmed mandatory publish with the same
/// exchange, routing key, message id and body.
struct PublisherConfirmTracker<Waiter> {
    enum Outcome {
        case confirmed
        case nacked
        case returned(replyCode: Int, replyText: String)
    }

    struct ReturnKey: Equatable {
        var exchange: String
        var routingKey: String
        var messageID: String?
        var body: [UInt8]
    }

    private struct Entry {
        var sequence: UInt64
        var waiter: Waiter
        var returnKey: ReturnKey?
        var returned: (replyCode: Int, replyText: String)?
        /// Monotonic nanoseconds after which the publish stops waiting for its confirm.
        var deadline: UInt64
    }

    private var entries: [Entry] = []
    private(set) var nextSequence: UInt64 = 1

    var pendingCount: Int { entries.count }

    /// Records a publish that was just written; returns its sequence number.
    ///
    /// - Parameter deadline: When ``expire(at:)`` gives the waiter up (monotonic nanoseconds, not earlier
    ///   than the previous publish's deadline).
    @discardableResult
    mutating func published(_ waiter: Waiter, returnKey: ReturnKey?, deadline: UInt64 = .max) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        entries.append(Entry(sequence: sequence, waiter: waiter, returnKey: returnKey, deadline: deadline))
        return sequence
    }

    /// Takes out the publishes whose deadline passed by `now`, oldest first. A confirm that arrives for
    /// one later finds nothing to resolve.
    mutating func expire(at now: UInt64) -> [Waiter] {
        let end = entries.firstIndex { $0.deadline > now } ?? entries.count
        guard end > 0 else { return [] }
        let expired = entries[..<end].map(\.waiter)
        entries.removeSubrange(..<end)
        return expired
    }

    mutating func returned(_ key: ReturnKey, replyCode: Int, replyText: String) {
        guard let index = entries.firstIndex(where: { $0.returned == nil && $0.returnKey == key }) else { return }
        entries[index].returned = (replyCode, replyText)
    }

    /// Resolves the publishes a basic.ack (`nacked: false`) or basic.nack covers.
    mutating func resolve(deliveryTag: UInt64, multiple: Bool, nacked: Bool) -> [(Waiter, Outcome)] {
        let covered: Range<Int>
        if multiple {
            let end = entries.firstIndex { $0.sequence > deliveryTag } ?? entries.count
            covered = 0..<end
        } else {
            guard let index = entries.firstIndex(where: { $0.sequence == deliveryTag }) else { return [] }
            covered = index..<(index + 1)
        }
        let resolved = entries[covered].map { entry -> (Waiter, Outcome) in
            if nacked { return (entry.waiter, .nacked) }
            if let returned = entry.returned {
                return (entry.waiter, .returned(replyCode: returned.replyCode, replyText: returned.replyText))
            }
            return (entry.waiter, .confirmed)
        }
        entries.removeSubrange(covered)
        return resolved
    }

    /// Takes every waiter out, for failing them when the channel or connection is gone; numbering restarts.
    mutating func removeAll() -> [Waiter] {
        let waiters = entries.map(\.waiter)
        entries.removeAll()
        nextSequence = 1
        return waiters
    }
}
