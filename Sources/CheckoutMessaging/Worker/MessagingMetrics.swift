import Metrics

/// What the messaging layer counts and times, by command (`cart.sync`, `order.place`).
///
/// - `checkout_commands_received_total{command}`
/// - `checkout_commands_completed_total{command, result="acked|retried|dead_lettered"}`
/// - `checkout_dead_letters_total{command, reason}`
/// - `checkout_commands_in_flight` (a meter)
/// - `checkout_command_processing_seconds{command}`: from delivery to acknowledgement
struct MessagingMetrics: Sendable {
    let factory: any MetricsFactory

    func received(_ kind: CommandKind) {
        Counter(label: "checkout_commands_received_total", dimensions: [("command", kind.routingKey)], factory: factory).increment()
    }

    func completed(_ kind: CommandKind, _ result: String, since start: ContinuousClock.Instant) {
        Counter(label: "checkout_commands_completed_total", dimensions: [("command", kind.routingKey), ("result", result)], factory: factory)
            .increment()
        Timer(label: "checkout_command_processing_seconds", dimensions: [("command", kind.routingKey)], factory: factory)
            .record(duration: ContinuousClock.now - start)
    }

    func deadLettered(_ kind: CommandKind, reason: String) {
        Counter(label: "checkout_dead_letters_total", dimensions: [("command", kind.routingKey), ("reason", reason)], factory: factory)
            .increment()
    }

    func started() {
        Meter(label: "checkout_commands_in_flight", factory: factory).increment()
    }

    func finished() {
        Meter(label: "checkout_commands_in_flight", factory: factory).decrement()
    }
}
