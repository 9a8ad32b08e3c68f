import CheckoutDomain
import Synchronization

/// The PaymentIntents Stripe approved, by the command that asked, kept from the moment the approval
/// is read: a refund then goes by id, without Stripe's search, which is not read-after-write and can
/// miss a charge made seconds earlier.
///
/// In memory, for this process: a command retried after a crash of the worker that charged it finds
/// nothing here, and falls back to the search. An approval is kept for ``retention``, and at most
/// ``capacity`` of them, the oldest dropped first.
final class StripeApprovedCharges: Sendable {
    /// An hour by default: longer than a command's whole retry ladder (`1s,5s,30s,2m,10m` by default) plus a claim lease.
    let retention: Duration
    let capacity: Int

    private struct Entry {
        let payment: Payment
        let approvedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [CommandID: Entry] = [:]
        /// Keys in the order they were recorded, oldest first; `start` skips those already dropped.
        var order: [CommandID] = []
        var start = 0
    }

    private let state = Mutex(State())

    init(retention: Duration = .seconds(3_600), capacity: Int = 100_000) {
        self.retention = retention
        self.capacity = max(capacity, 1)
    }

    /// Keeps the first approval of a command: a repeat (Stripe's replayed answer) is the same PaymentIntent.
    func record(_ payment: Payment, for commandID: CommandID, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.entries[commandID] == nil {
                state.entries[commandID] = Entry(payment: payment, approvedAt: now)
                state.order.append(commandID)
            }
            while state.start < state.order.count {
                let oldest = state.order[state.start]
                guard let entry = state.entries[oldest], state.entries.count > capacity || now - entry.approvedAt > retention else { break }
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
