import CheckoutDomain
import Logging
import Metrics

/// What both use-case decorators do around `execute`: time it, and log and count what it throws.
struct CommandInstrumentation: Sendable {
    /// The routing key of the command, used as the `command` dimension: `cart.sync`, `order.place`.
    let command: String
    let logger: Logger
    let metrics: any MetricsFactory

    func run(commandID: String, cartID: String, _ execute: () async throws -> Void) async throws {
        let start = ContinuousClock.now
        do {
            try await execute()
            record(result: "handled", since: start)
        } catch let error as RetryableError {
            record(result: "retryable", since: start)
            Counter(
                label: "checkout_command_retries_total", dimensions: [("command", command), ("code", "\(error.code)")], factory: metrics
            )
            .increment()
            // A wait is looked at again every retry delay, by every worker it reaches, for as long as it lasts:
            // a warning each time would bury the failures.
            logger(commandID: commandID, cartID: cartID).log(
                level: error.code.isWait ? .debug : .warning, "\(command) will be retried", error: error,
                metadata: ["error.code": "\(error.code)"])
            throw error
        } catch {
            record(result: "failed", since: start)
            logger(commandID: commandID, cartID: cartID).error("\(command) failed", error: error)
            throw error
        }
    }

    /// Logs and counts a command given up after its last retry; what giving up throws is logged as an error.
    func abandon(commandID: String, cartID: String, after cause: RetryableError, _ abandon: () async throws -> Void) async throws {
        let logger = logger(commandID: commandID, cartID: cartID)
        Counter(
            label: "checkout_commands_abandoned_total", dimensions: [("command", command), ("code", "\(cause.code)")], factory: metrics
        )
        .increment()
        logger.error("\(command) abandoned after its last retry", error: cause, metadata: ["error.code": "\(cause.code)"])
        do {
            try await abandon()
        } catch {
            logger.error("\(command) could not be abandoned", error: error)
            throw error
        }
    }

    /// The logger naming the command, made only for a line to write: a handled command logs nothing here.
    private func logger(commandID: String, cartID: String) -> Logger {
        var logger = logger
        logger[metadataKey: "command.id"] = "\(commandID)"
        logger[metadataKey: "cart.id"] = "\(cartID)"
        return logger
    }

    private func record(result: String, since start: ContinuousClock.Instant) {
        Timer(label: "checkout_command_duration_seconds", dimensions: [("command", command), ("result", result)], factory: metrics)
            .record(duration: ContinuousClock.now - start)
    }
}
