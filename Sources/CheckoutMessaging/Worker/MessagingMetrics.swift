import Foundation
import Metrics
import RabbitMQ

/// What the messaging layer counts and times, by command (`cart.sync`, `order.place`).
///
/// - `checkout_commands_received_total{command}`
/// - `checkout_commands_completed_total{command, result="acked|retried|dead_lettered"}`
/// - `checkout_dead_letters_total{command, reason}`
/// - `checkout_commands_in_flight` (a meter)
/// - `checkout_command_processing_seconds{command}`: from delivery to acknowledgement
/// - `checkout_command_queue_wait_seconds{command}`: from the command's AMQP timestamp to its delivery
/// - `checkout_commands_untimed_total{command, reason="absent|unusable"}`: commands without a usable timestamp
///
/// The handles of the per-message metrics are made once, not looked up in the factory for every delivery.
struct MessagingMetrics: Sendable {
    /// The completions a delivery can end with.
    enum Result: String, CaseIterable {
        case acked
        case retried
        case deadLettered = "dead_lettered"
    }

    private let factory: any MetricsFactory
    private let received: [CommandKind: Counter]
    private let completed: [CommandKind: [Result: Counter]]
    private let processing: [CommandKind: Timer]
    private let queueWait: [CommandKind: Timer]
    private let untimed: [CommandKind: [UntimedReason: Counter]]
    private let inFlight: Meter

    /// Why a command's queue wait is not measured.
    enum UntimedReason: String, CaseIterable {
        /// The client set no `timestamp`.
        case absent
        /// More than a minute in the future, or more than a week old: a client clock or value not to trust.
        case unusable
    }

    init(factory: any MetricsFactory) {
        self.factory = factory
        var received: [CommandKind: Counter] = [:]
        var completed: [CommandKind: [Result: Counter]] = [:]
        var processing: [CommandKind: Timer] = [:]
        var queueWait: [CommandKind: Timer] = [:]
        var untimed: [CommandKind: [UntimedReason: Counter]] = [:]
        for kind in CommandKind.allCases {
            let command = ("command", kind.routingKey)
            received[kind] = Counter(label: "checkout_commands_received_total", dimensions: [command], factory: factory)
            processing[kind] = Timer(label: "checkout_command_processing_seconds", dimensions: [command], factory: factory)
            queueWait[kind] = Timer(label: "checkout_command_queue_wait_seconds", dimensions: [command], factory: factory)
            for reason in UntimedReason.allCases {
                untimed[kind, default: [:]][reason] = Counter(
                    label: "checkout_commands_untimed_total",
                    dimensions: [command, ("reason", reason.rawValue)],
                    factory: factory
                )
            }
            for result in Result.allCases {
                completed[kind, default: [:]][result] = Counter(
                    label: "checkout_commands_completed_total",
                    dimensions: [command, ("result", result.rawValue)],
                    factory: factory
                )
            }
        }
        self.received = received
        self.completed = completed
        self.processing = processing
        self.queueWait = queueWait
        self.untimed = untimed
        inFlight = Meter(label: "checkout_commands_in_flight", factory: factory)
    }

    /// Counts a delivery and records how long it waited in the broker, from the `timestamp` its client set.
    func received(_ kind: CommandKind, sentAt timestamp: AMQPTimestamp?, now: Date) {
        received[kind]?.increment()
        guard let timestamp else {
            untimed[kind]?[.absent]?.increment()
            return
        }
        let seconds = now.timeIntervalSince1970.rounded(.down) - Double(timestamp.secondsSince1970)
        guard (-60...604_800).contains(seconds) else {
            untimed[kind]?[.unusable]?.increment()
            return
        }
        queueWait[kind]?.record(duration: .seconds(max(seconds, 0)))
    }

    func completed(_ kind: CommandKind, _ result: Result, since start: ContinuousClock.Instant) {
        completed[kind]?[result]?.increment()
        processing[kind]?.record(duration: ContinuousClock.now - start)
    }

    /// Reasons are open-ended, so their counters are made when one is needed; dead letters are rare.
    func deadLettered(_ kind: CommandKind, reason: String) {
        Counter(label: "checkout_dead_letters_total", dimensions: [("command", kind.routingKey), ("reason", reason)], factory: factory)
            .increment()
    }

    func started() {
        inFlight.increment()
    }

    func finished() {
        inFlight.decrement()
    }
}
