import CheckoutDomain
import Metrics

/// What both use-case decorators record for every command: how long it took, by result, and the
/// retries and abandonments by error code.
///
/// The timers are made once for the process; the decorators are made for every command, and a
/// factory lookup per command is a lock and a hash of the label and its dimensions. Retries and
/// abandonments are rare and keyed by an open set of codes, so their counters are made when needed.
struct CommandMetrics: Sendable {
    /// The routing key of the command, used as the `command` dimension: `cart.sync`, `order.place`.
    let command: String
    let handled: Timer
    let retryable: Timer
    let failed: Timer
    private let factory: any MetricsFactory

    init(command: String, factory: any MetricsFactory) {
        self.command = command
        self.factory = factory
        func duration(_ result: String) -> Timer {
            Timer(label: "checkout_command_duration_seconds", dimensions: [("command", command), ("result", result)], factory: factory)
        }
        handled = duration("handled")
        retryable = duration("retryable")
        failed = duration("failed")
    }

    func retried(_ code: RetryableError.Code) -> Counter {
        Counter(label: "checkout_command_retries_total", dimensions: [("command", command), ("code", "\(code)")], factory: factory)
    }

    func abandoned(_ code: RetryableError.Code) -> Counter {
        Counter(label: "checkout_commands_abandoned_total", dimensions: [("command", command), ("code", "\(code)")], factory: factory)
    }
}
