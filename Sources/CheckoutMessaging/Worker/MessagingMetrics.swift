import Metrics

/// What the messaging layer counts and times, by command (`cart.sync`, `order.place`).
///
/// - `checkout_commands_received_total{command}`
/// - `checkout_commands_completed_total{command, result="acked|retried|dead_lettered"}`
/// - `checkout_dead_letters_total{command, reason}`
/// - `checkout_commands_in_flight` (a meter)
/// - `checkout_command_processing_seconds{command}`: from delivery to acknowledgement
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
    private let inFlight: Meter

    init(factory: any MetricsFactory) {
        self.factory = factory
        var received: [CommandKind: Counter] = [:]
        var completed: [CommandKind: [Result: Counter]] = [:]
        var processing: [CommandKind: Timer] = [:]
        for kind in CommandKind.allCases {
            let command = ("command", kind.routingKey)
            received[kind] = Counter(label: "checkout_commands_received_total", dimensions: [command], factory: factory)
            processing[kind] = Timer(label: "checkout_command_processing_seconds", dimensions: [command], factory: factory)
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
        inFlight = Meter(label: "checkout_commands_in_flight", factory: factory)
    }

    func received(_ kind: CommandKind) {
        received[kind]?.increment()
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
