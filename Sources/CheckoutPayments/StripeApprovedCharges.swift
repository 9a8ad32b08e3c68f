import CheckoutDomain
import Synchronization

/// The PaymentIntents Stripe approved, by the command that asked, kept from the moment the approval
/// is read: a refund then goes by id, without Stripe's search, which is not read-after-write and can
/// miss a charge made seconds earlier.
///
/// In memory, for this process: a command retried after a crash of the worker that charged it finds
/// nothing here, and falls back to the search. Entries older than ``retention`` go first, and at most
/// ``capacity`` are kept, the oldest dropped.
final class StripeApprovedCharges: Sendable {
    /// Longer than a command's whole retry ladder (`1s,5s,30s,2m,10m` by default) plus a claim lease.
    static let retention = Duration.seconds(3_600)
    static let capacity = 100_000

    private struct Entry {
        let payment: Payment
        let approvedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [CommandID: Entry] = [:]
        /// Keys in the order they were first recorded, oldest first; `start` skips those already dropped.
        var order: [CommandID] = []
        var start = 0
    }

    private let state = Mutex(State())

    func record(_ payment: Payment, for commandID: CommandID, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.entries.updateValue(Entry(payment: payment, approvedAt: now), forKey: commandID) == nil {
                state.order.append(commandID)
            }
            while state.start < state.order.count {
                let oldest = state.order[state.start]
                guard let entry = state.entries[oldest] else { state.start += 1; continue }
                guard state.entries.count > Self.capacity || now - entry.approvedAt > Self.retention else { break }
                state.entries[oldest] = nil
                state.start += 1
            }
            if state.start > 1_024, state.start * 2 > state.order.count {
                state.order.removeFirst(state.start)
                state.start = 0
            }
        }
    }

    func payment(for commandID: CommandID) -> Payment? {
        state.withLock { $0.entries[commandID]?.payment }
    }
}
