import Synchronization

/// The deliveries of one consumer on their way from the driver's thread to the task that iterates them.
///
/// An `AsyncStream` did this, but it waits through a continuation and a cancellation handler for every
/// element, buffered or not, in generic code the compiler does not specialise. Here a buffered delivery
/// is handed over under a lock; only an empty buffer makes the iterating task wait.
final class AMQPDeliveryBuffer: Sendable {
    /// Whether the driver holds a live subscription for these deliveries (for readiness checks).
    let isSubscribed = Atomic<Bool>(false)

    private enum Handoff {
        case refused
        case buffered
        case resume(UnsafeContinuation<AMQPDelivery?, Never>)
    }

    private enum Taken {
        case delivery(AMQPDelivery)
        case end
        case empty
    }

    private struct State {
        var deliveries: [AMQPDelivery] = []
        /// Index of the next delivery to hand out: taking one does not shift the array.
        var head = 0
        var waiter: UnsafeContinuation<AMQPDelivery?, Never>?
        /// The driver yields no more: the iterator gets what is buffered, then nil.
        var isFinished = false
        /// The iterating side is gone (its task was cancelled or the consumer dropped): it takes nothing more.
        var isTerminated = false
        var onTermination: (@Sendable (_ unconsumed: [AMQPDelivery]) -> Void)?

        mutating func take() -> Taken {
            if head < deliveries.count {
                let delivery = deliveries[head]
                head += 1
                if head == deliveries.count {
                    deliveries.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64, head * 2 >= deliveries.count {
                    deliveries.removeFirst(head)
                    head = 0
                }
                return .delivery(delivery)
            }
            return isFinished || isTerminated ? .end : .empty
        }
    }

    private let state = Mutex(State())

    /// Called once, when the iterating side goes away, with the deliveries it never took, so that they can
    /// be returned to the queue instead of staying unacknowledged until the channel closes.
    func onTermination(_ handler: @escaping @Sendable (_ unconsumed: [AMQPDelivery]) -> Void) {
        state.withLock { $0.onTermination = handler }
    }

    /// Driver: hands a delivery on; false once the iterating side is gone or the buffer was finished.
    func yield(_ delivery: AMQPDelivery) -> Bool {
        let handoff = state.withLock { state -> Handoff in
            guard !state.isTerminated, !state.isFinished else { return .refused }
            if let waiter = state.waiter {
                state.waiter = nil
                return .resume(waiter)
            }
            state.deliveries.append(delivery)
            return .buffered
        }
        switch handoff {
        case .refused: return false
        case .buffered: return true
        case .resume(let waiter):
            waiter.resume(returning: delivery)
            return true
        }
    }

    /// Driver: no more deliveries; the iterator ends after the buffered ones.
    func finish() {
        let waiter = state.withLock { state in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Iterator: the next delivery, waiting for one when none is buffered; nil at the end or when the
    /// iterating task is cancelled.
    func next(isolation actor: isolated (any Actor)?) async -> AMQPDelivery? {
        if Task.isCancelled {
            terminate()
            return nil
        }
        switch state.withLock({ $0.take() }) {
        case .delivery(let delivery): return delivery
        case .end: return nil
        case .empty: break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<AMQPDelivery?, Never>) in
                let taken = state.withLock { state -> Taken in
                    let taken = state.take()
                    if case .empty = taken { state.waiter = waiter }
                    return taken
                }
                switch taken {
                case .delivery(let delivery): waiter.resume(returning: delivery)
                case .end: waiter.resume(returning: nil)
                case .empty: break
                }
            }
        } onCancel: {
            terminate()
        }
    }

    /// Iterating side: nothing more is taken; later deliveries are refused and buffered ones handed to the
    /// termination handler.
    func terminate() {
        var waiter: UnsafeContinuation<AMQPDelivery?, Never>?
        var handler: (@Sendable ([AMQPDelivery]) -> Void)?
        var unconsumed: [AMQPDelivery] = []
        state.withLock { state in
            guard !state.isTerminated else { return }
            state.isTerminated = true
            unconsumed = Array(state.deliveries[state.head...])
            state.deliveries = []
            state.head = 0
            swap(&waiter, &state.waiter)
            swap(&handler, &state.onTermination)
        }
        waiter?.resume(returning: nil)
        handler?(unconsumed)
    }
}
